package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * StateBackupRecords is the SQL of {@code state_backups} (V15): the record of each state backup of the seat, where it
 * is and when it was made. {@code mesh seat backup} writes one on the seat through its own connection to the store; the
 * controller reads the newest for {@code mesh status}.
 */
public final class StateBackupRecords {

    /** Row is one state backup: when it was made, where it is ({@code file:/path}, {@code node:NAME/ref}), its size. */
    public record Row(Instant made, String place, long bytes, String mesh) {
    }

    private StateBackupRecords() {
    }

    public static void record(Connection c, Row row) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into state_backups (made, place, bytes, mesh) values (?, ?, ?, ?)")) {
            s.setTimestamp(1, Timestamp.from(row.made()));
            s.setString(2, row.place());
            s.setLong(3, row.bytes());
            s.setString(4, row.mesh());
            s.executeUpdate();
        }
    }

    /** The newest audit row of one of {@code verbs} (when, which verb), or null when there is none. */
    public static mesh.plan.StateBackupSchedule.KeyChange lastKeyChange(Connection c, List<String> verbs) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select at, verb from audit where verb = any (?) order by at desc, id desc limit 1")) {
            s.setArray(1, c.createArrayOf("text", verbs.toArray()));
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? new mesh.plan.StateBackupSchedule.KeyChange(r.getTimestamp(1).toInstant(), r.getString(2)) : null;
            }
        }
    }

    /** The newest {@code limit} state backups, newest first. */
    public static List<Row> newest(Connection c, int limit) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "select made, place, bytes, mesh from state_backups order by made desc, id desc limit ?")) {
            s.setInt(1, limit);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows.add(new Row(r.getTimestamp(1).toInstant(), r.getString(2), r.getLong(3), r.getString(4)));
                }
            }
        }
        return rows;
    }
}
