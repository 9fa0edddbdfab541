package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import mesh.plan.StandbyPlan;
import mesh.plan.StandbySync;

/**
 * Replication is the SQL by which the seat's controller reads and steers PostgreSQL's own streaming replication
 * (docs/seat.md): the rows of {@code pg_stat_replication}, the value of {@code synchronous_standby_names}, and the
 * changes {@link StandbyPlan} and {@link StandbySync} decide. The changes need the store's superuser, which the
 * seat's {@code mesh} role is (the store image makes {@code POSTGRES_USER} one).
 */
public final class Replication {

    private Replication() {
    }

    /** The standbys connected to this store, as {@code pg_stat_replication} says; lag is the bytes not yet replayed. */
    public static List<StandbySync.Replica> replicas(Connection c) throws SQLException {
        List<StandbySync.Replica> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select application_name, state, sync_state, "
                + "coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), -1)::bigint from pg_stat_replication")) {
            while (r.next()) {
                long lag = r.getLong(4);
                rows.add(new StandbySync.Replica(r.getString(1), r.getString(2), r.getString(3), lag < 0 ? Long.MAX_VALUE : lag));
            }
        }
        return rows;
    }

    /** The standbys {@code synchronous_standby_names} names now. */
    public static Set<String> synchronousNames(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("show synchronous_standby_names")) {
            r.next();
            return StandbySync.namedIn(r.getString(1));
        }
    }

    /**
     * Sets {@code synchronous_standby_names} to make exactly {@code standbys} synchronous ({@link StandbySync#standbyNames};
     * in {@code postgresql.auto.conf}) and reloads.
     */
    public static void setSynchronous(Connection c, Collection<String> standbys) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(true);   // ALTER SYSTEM cannot run inside a transaction
        try (Statement s = c.createStatement()) {
            String names = StandbySync.standbyNames(standbys);
            s.execute("alter system set synchronous_standby_names = '" + names.replace("'", "''") + "'");
            s.execute("select pg_reload_conf()");
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /**
     * Prepares the seat's store for {@code standby}: the role and slot ({@link StandbyPlan#seatSql}) and the
     * {@code pg_hba.conf} line, written through PostgreSQL's own file functions and reloaded; what it changed, in words.
     */
    public static List<String> prepare(Connection c, String standby, String password) throws SQLException {
        List<String> done = new ArrayList<>();
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            for (String sql : StandbyPlan.seatSql(standby, password)) {
                s.execute(sql);
            }
            done.add("role " + StandbyPlan.ROLE + " and slot " + StandbyPlan.slot(standby));
            Optional<String> hba = StandbyPlan.hbaWith(hba(c));
            if (hba.isPresent()) {
                writeHba(c, hba.get());
                s.execute("select pg_reload_conf()");
                done.add("pg_hba.conf lets " + StandbyPlan.ROLE + " stream");
            }
        } finally {
            c.setAutoCommit(auto);
        }
        return done;
    }

    private static String hba(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select pg_read_file(current_setting('hba_file'))")) {
            r.next();
            return r.getString(1);
        }
    }

    /** Writes {@code content} as the hba file: COPY in CSV with a quote and delimiter no line holds, so nothing is escaped. */
    private static void writeHba(Connection c, String content) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select current_setting('hba_file')")) {
            r.next();
            String file = r.getString(1).replace("'", "''");
            try (PreparedStatement p = c.prepareStatement("create temporary table mesh_hba (n int, line text)")) {
                p.execute();
            }
            try (PreparedStatement p = c.prepareStatement("insert into mesh_hba select n, line from unnest(string_to_array(rtrim(?, E'\\n'), E'\\n')) "
                    + "with ordinality as t(line, n)")) {
                p.setString(1, content);
                p.executeUpdate();
            }
            s.execute("copy (select line from mesh_hba where line <> '' order by n) to '" + file + "' with (format csv, delimiter E'\\x01', quote E'\\x02')");
            s.execute("drop table mesh_hba");
        }
    }
}
