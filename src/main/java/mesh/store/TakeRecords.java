package mesh.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import mesh.model.DeclarationJson;
import mesh.plan.Take;
import mesh.model.TakeStep;

/**
 * TakeRecords holds the SQL of {@code mesh take} (V3__take.sql): the takes, each with the step it
 * carries out next, and the old copies they left. Kept apart from {@link MeshStore} only for size;
 * it runs in the caller's transaction the same way.
 */
public final class TakeRecords {

    private TakeRecords() {
    }

    /** OldCopy is a copy of a module's volumes a take left on its source, and when it was forgotten (null: kept). */
    public record OldCopy(String module, String node, long epoch, List<String> volumes, java.time.Instant leftAt) {
    }

    private static final String COLUMNS = "module, from_node, to_node, epoch, back, step, volumes::text, ticket, error, problem, stop_and_copy";

    /** The next take epoch: monotonic across the mesh (a sequence), never reused. */
    public static long nextEpoch(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select nextval('take_epoch')"); ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }

    public static void insert(Connection c, Take t) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into takes (module, from_node, to_node, epoch, back, step, state, volumes, ticket, error, problem,
                    stop_and_copy)
                values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)""")) {
            s.setString(1, t.module());
            s.setString(2, t.from());
            s.setString(3, t.to());
            s.setLong(4, t.epoch());
            s.setBoolean(5, t.back());
            s.setString(6, t.step().word());
            s.setString(7, t.step().state().word());
            s.setString(8, DeclarationJson.write(t.volumes()));
            s.setString(9, t.ticket());
            s.setString(10, t.error());
            s.setString(11, t.problem());
            s.setBoolean(12, t.stopAndCopy());
            s.executeUpdate();
        }
    }

    /** Writes a take's step and what it found. */
    public static void save(Connection c, Take t) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                update takes set step = ?, state = ?, volumes = ?::jsonb, ticket = ?, error = ?, problem = ?,
                updated_at = now() where epoch = ?""")) {
            s.setString(1, t.step().word());
            s.setString(2, t.step().state().word());
            s.setString(3, DeclarationJson.write(t.volumes()));
            s.setString(4, t.ticket());
            s.setString(5, t.error());
            s.setString(6, t.problem());
            s.setLong(7, t.epoch());
            s.executeUpdate();
        }
    }

    /** The module's take that has not ended, if any (at most one: a unique index keeps it so). */
    public static Optional<Take> running(Connection c, String module) throws SQLException {
        List<Take> found = query(c, "select " + COLUMNS + " from takes where module = ? and state = 'running'", module);
        return found.stream().findFirst();
    }

    /** Every take that has not ended, oldest first. */
    public static List<Take> running(Connection c) throws SQLException {
        return query(c, "select " + COLUMNS + " from takes where state = 'running' order by epoch");
    }

    /** Every take that has not ended and every restore (a take from a backup) that has not: what may start a module. */
    public static List<Take> runningWithRestores(Connection c) throws SQLException {
        List<Take> all = new java.util.ArrayList<>(running(c));
        BackupRecords.runningRestores(c).forEach(r -> all.add(r.restore()));
        return all;
    }

    /** The module's takes, oldest first. */
    public static List<Take> history(Connection c, String module) throws SQLException {
        return query(c, "select " + COLUMNS + " from takes where module = ? order by epoch", module);
    }

    public static Optional<Take> byEpoch(Connection c, long epoch) throws SQLException {
        return query(c, "select " + COLUMNS + " from takes where epoch = " + epoch).stream().findFirst();
    }

    /**
     * The take at {@code epoch}, its row locked until the transaction ends: what a take's switch writes under, so a
     * switch still committing and the read of its outcome after a failed try follow one another
     * ({@code mesh.plan.TakePlan#switchInDoubt}).
     */
    public static Optional<Take> locked(Connection c, long epoch) throws SQLException {
        return query(c, "select " + COLUMNS + " from takes where epoch = " + epoch + " for update").stream().findFirst();
    }

    /** The newest take of the module, ended or not. */
    public static Optional<Take> newest(Connection c, String module) throws SQLException {
        return query(c, "select " + COLUMNS + " from takes where module = ? order by epoch desc limit 1", module)
                .stream().findFirst();
    }

    private static List<Take> query(Connection c, String sql, String... params) throws SQLException {
        List<Take> takes = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setString(i + 1, params[i]);
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    takes.add(new Take(r.getString(1), r.getString(2), r.getString(3), r.getLong(4), r.getBoolean(5),
                            TakeStep.of(r.getString(6)), volumes(r.getString(7)), r.getString(8), r.getString(9),
                            r.getString(10), r.getBoolean(11), null));
                }
            }
        }
        return takes;
    }

    private static List<Take.Volume> volumes(String json) {
        try {
            return DeclarationJson.MAPPER.readValue(json, new TypeReference<List<Take.Volume>>() { });
        } catch (JsonProcessingException e) {
            throw new StoreFailure("the store holds an unreadable take record: " + e.getOriginalMessage(), e);
        }
    }

    // old copies

    public static void recordOldCopy(Connection c, String module, String node, long epoch, List<String> volumes)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into take_old_copies (module, node, epoch, volumes) values (?, ?, ?, ?::jsonb)
                on conflict (module, node, epoch) do nothing""")) {
            s.setString(1, module);
            s.setString(2, node);
            s.setLong(3, epoch);
            s.setString(4, DeclarationJson.write(volumes));
            s.executeUpdate();
        }
    }

    /** The module's old copies still kept, oldest first. */
    public static List<OldCopy> oldCopies(Connection c, String module) throws SQLException {
        List<OldCopy> copies = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("""
                select module, node, epoch, volumes::text, left_at from take_old_copies
                where module = ? and forgotten_at is null order by epoch""")) {
            s.setString(1, module);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    List<String> volumes;
                    try {
                        volumes = DeclarationJson.MAPPER.readValue(r.getString(4), new TypeReference<List<String>>() { });
                    } catch (JsonProcessingException e) {
                        throw new StoreFailure("the store holds an unreadable old copy: " + e.getOriginalMessage(), e);
                    }
                    copies.add(new OldCopy(r.getString(1), r.getString(2), r.getLong(3), volumes, r.getTimestamp(5).toInstant()));
                }
            }
        }
        return copies;
    }

    /** Marks the module's old copies on {@code node} forgotten (all, or only the one at {@code epoch} when positive). */
    public static void forget(Connection c, String module, String node, long epoch) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("update take_old_copies set forgotten_at = now()"
                + " where module = ? and node = ? and forgotten_at is null" + (epoch > 0 ? " and epoch = " + epoch : ""))) {
            s.setString(1, module);
            s.setString(2, node);
            s.executeUpdate();
        }
    }
}
