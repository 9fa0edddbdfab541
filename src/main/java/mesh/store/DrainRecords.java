package mesh.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import mesh.model.DeclarationJson;
import mesh.model.DrainStep;
import mesh.plan.Drain;

/** DrainRecords is the store's drains ({@code mesh drain}, docs/drain.md): one row per drain, at most one running per node. */
public final class DrainRecords {

    private static final String COLUMNS = "id, node, targets::text, parallel, deadline_at, step, modules::text, error, problem";

    private DrainRecords() {
    }

    /** Records a drain begun; its id. */
    public static long insert(Connection c, Drain d) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into drains (node, targets, parallel, deadline_at, step, state, modules, error, problem)
                values (?, ?::jsonb, ?, ?, ?, ?, ?::jsonb, ?, ?) returning id""")) {
            s.setString(1, d.node());
            s.setString(2, DeclarationJson.write(d.targets()));
            s.setInt(3, d.parallel());
            if (d.deadline() == null) {
                s.setNull(4, Types.TIMESTAMP_WITH_TIMEZONE);
            } else {
                s.setTimestamp(4, Timestamp.from(d.deadline()));
            }
            s.setString(5, d.step().word());
            s.setString(6, d.step().state().word());
            s.setString(7, DeclarationJson.write(d.modules()));
            s.setString(8, d.error());
            s.setString(9, d.problem());
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    /** Writes a drain's step and what it found. */
    public static void save(Connection c, Drain d) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                update drains set step = ?, state = ?, modules = ?::jsonb, error = ?, problem = ?, updated_at = now()
                where id = ?""")) {
            s.setString(1, d.step().word());
            s.setString(2, d.step().state().word());
            s.setString(3, DeclarationJson.write(d.modules()));
            s.setString(4, d.error());
            s.setString(5, d.problem());
            s.setLong(6, d.id());
            s.executeUpdate();
        }
    }

    /** The node's drain that has not ended, if any. */
    public static Optional<Drain> running(Connection c, String node) throws SQLException {
        return query(c, "select " + COLUMNS + " from drains where node = ? and state = 'running'", node).stream().findFirst();
    }

    /** Every drain that has not ended, oldest first. */
    public static List<Drain> running(Connection c) throws SQLException {
        return query(c, "select " + COLUMNS + " from drains where state = 'running' order by id");
    }

    /** The node's newest drain, ended or not. */
    public static Optional<Drain> newest(Connection c, String node) throws SQLException {
        return query(c, "select " + COLUMNS + " from drains where node = ? order by id desc limit 1", node).stream().findFirst();
    }

    /** The newest drain of each node, newest first. */
    public static List<Drain> newestEach(Connection c) throws SQLException {
        return query(c, "select distinct on (node) " + COLUMNS + " from drains order by node, id desc");
    }

    private static List<Drain> query(Connection c, String sql, String... params) throws SQLException {
        List<Drain> found = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setString(i + 1, params[i]);
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    Timestamp deadline = r.getTimestamp(5);
                    found.add(new Drain(r.getLong(1), r.getString(2), read(r.getString(3), new TypeReference<List<String>>() { }),
                            r.getInt(4), deadline == null ? null : deadline.toInstant(), DrainStep.of(r.getString(6)),
                            read(r.getString(7), new TypeReference<List<Drain.Item>>() { }), r.getString(8), r.getString(9)));
                }
            }
        }
        return found;
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return DeclarationJson.MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a drain's stored " + type.getType() + " does not read: " + e.getOriginalMessage(), e);
        }
    }
}
