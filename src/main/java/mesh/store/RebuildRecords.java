package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import mesh.plan.Rebuild;

/**
 * RebuildRecords is the SQL of a rebuild's {@code load} step (docs/rebuild.md): what the store loaded from a state
 * backup records as placed and under way, read for {@link Rebuild#adopt}, and the adoption written back in one
 * transaction, with the seat's node moved to the rebuilt machine's address. The fence (V2) is passed as
 * {@link StoreCopy#copyIn} passes it: no controller runs over this store yet.
 */
public final class RebuildRecords {

    private RebuildRecords() {
    }

    /** Migrates the store at {@code url} to this build's schema, as the controller does at its start ({@link Migrations}). */
    public static void migrate(String url, String user, String password) {
        Migrations.flyway(url, user, password).migrate();
    }

    /** Every module's placement. */
    public static List<Rebuild.Placement> placements(Connection c) throws SQLException {
        List<Rebuild.Placement> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select module, assigned, taken from placements")) {
            while (r.next()) {
                out.add(new Rebuild.Placement(r.getString(1), r.getString(2), r.getString(3)));
            }
        }
        return out;
    }

    /** The takes, backups and restores recorded as running. */
    public static List<Rebuild.Operation> running(Connection c) throws SQLException {
        List<Rebuild.Operation> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "select 'TAKE', epoch, module from takes where state = 'running'"
                        + " union all select 'BACKUP', id, module from backups where state = 'running'"
                        + " union all select 'RESTORE', id, module from restores where state = 'running' order by 1, 2")) {
            while (r.next()) {
                out.add(new Rebuild.Operation(Rebuild.Kind.valueOf(r.getString(1)), r.getLong(2), r.getString(3)));
            }
        }
        return out;
    }

    /**
     * Writes {@code adoption} and moves node {@code seat} to {@code address} (its agent's URL too, same scheme), in one
     * transaction; what the seat's agent acknowledged is forgotten (the new machine's agent holds nothing of it), so the
     * controller's first push sends it its declaration. One audit row names what was done.
     */
    public static void adopt(Connection c, Rebuild.Adoption adoption, String seat, String address, String audit) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("set local mesh.epoch = '" + Long.MAX_VALUE + "'");
            for (Rebuild.Failed f : adoption.failed()) {
                fail(c, f);
            }
            for (String module : adoption.lost()) {
                update(c, "update placements set assigned = null, taken = null where module = ?", module);
            }
            try (PreparedStatement p = c.prepareStatement("update nodes set address = ?,"
                    + " agent = split_part(agent, '://', 1) || '://' || ? || ':7701' where name = ?")) {
                p.setString(1, address);
                p.setString(2, address);
                p.setString(3, seat);
                if (p.executeUpdate() != 1) {
                    throw new SQLException("the state backup's store has no node " + seat + " (the seat its CA names)");
                }
            }
            update(c, "update node_pushes set acked_generation = 0, acked_declaration = null, last_error = null where node = ?", seat);
            try (PreparedStatement p = c.prepareStatement("insert into audit (token, verb, change) values ('admin', ?, ?)")) {
                p.setString(1, "install --from-backup");
                p.setString(2, audit);
                p.executeUpdate();
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    private static void fail(Connection c, Rebuild.Failed f) throws SQLException {
        String sql = switch (f.operation().kind()) {
            case TAKE -> "update takes set state = 'failed', step = 'failed', error = ?, updated_at = now() where epoch = ?";
            case BACKUP -> "update backups set state = 'failed', record = jsonb_set(record, '{error}', to_jsonb(?::text)),"
                    + " ended_at = now() where id = ?";
            case RESTORE -> "update restores set state = 'failed', record = jsonb_set(record, '{error}', to_jsonb(?::text)),"
                    + " ended_at = now() where id = ?";
        };
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setString(1, f.reason());
            p.setLong(2, f.operation().id());
            p.executeUpdate();
        }
    }

    private static void update(Connection c, String sql, String value) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setString(1, value);
            p.executeUpdate();
        }
    }
}
