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
 * StandbyRecords is the SQL of {@code standby_seats} (V19): the nodes {@code mesh seat add} made standbys of the
 * store, and since when each is out of sync ({@link mesh.plan.StandbySync}), kept so that a restarted controller
 * still counts the 10 s from the first look that found it away.
 */
public final class StandbyRecords {

    /** Row is one standby: its node, when it was added, since when it is out of sync (null while in sync). */
    public record Row(String node, Instant added, Instant outOfSyncSince) {
    }

    private StandbyRecords() {
    }

    /** Records {@code node} as a standby; adding it again keeps its row. */
    public static void add(Connection c, String node, Instant at) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "insert into standby_seats (node, added) values (?, ?) on conflict (node) do nothing")) {
            s.setString(1, node);
            s.setTimestamp(2, Timestamp.from(at));
            s.executeUpdate();
        }
    }

    /**
     * Every standby recorded; none in a store whose migrations have not run yet (the standby watch starts before the
     * controller migrates: a fresh store's first start would log a missing table).
     */
    public static List<Row> all(Connection c) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select to_regclass('standby_seats') is null"); ResultSet r = s.executeQuery()) {
            if (r.next() && r.getBoolean(1)) {
                return rows;
            }
        }
        try (PreparedStatement s = c.prepareStatement("select node, added, out_of_sync from standby_seats order by node");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                Timestamp since = r.getTimestamp(3);
                rows.add(new Row(r.getString(1), r.getTimestamp(2).toInstant(), since == null ? null : since.toInstant()));
            }
        }
        return rows;
    }

    /** Keeps since when {@code node} is out of sync; null: it is in sync. */
    public static void outOfSync(Connection c, String node, Instant since) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "update standby_seats set out_of_sync = ? where node = ? and out_of_sync is distinct from ?")) {
            Timestamp t = since == null ? null : Timestamp.from(since);
            s.setTimestamp(1, t);
            s.setString(2, node);
            s.setTimestamp(3, t);
            s.executeUpdate();
        }
    }
}
