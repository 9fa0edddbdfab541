package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import mesh.model.OperationState;
import mesh.plan.AlertRules.Alert;
import mesh.plan.AlertRules.Change;
import mesh.plan.AlertRules.Kind;

/**
 * AlertRecords holds the SQL of the controller's alerts and of the places it posts them to (V12__alerts.sql):
 * the open alerts (pending or firing) as {@link mesh.plan.AlertRules} left them at the last look, and the resolved ones
 * for a while, so a controller killed between deciding a resolve and posting it posts it when it is back. It runs in
 * the caller's transaction, as {@link TakeRecords} does.
 */
public final class AlertRecords {

    private AlertRecords() {
    }

    /** A place alerts are posted to: an Alertmanager's base URL, who added it and when. */
    public record Receiver(String url, Instant addedAt, String addedBy) {
    }

    /** A resolved alert as posted again: the alert, and when its condition was first gone. */
    public record Resolved(Alert alert, Instant at) {

        public Duration lasted() {
            return Duration.between(alert.since(), at);
        }
    }

    /** Adds a receiver; whether it was new (adding one that is there changes nothing). */
    public static boolean addReceiver(Connection c, String url, String by) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into alert_receivers (url, added_by) values (?, ?)"
                + " on conflict (url) do nothing")) {
            s.setString(1, url);
            s.setString(2, by);
            return s.executeUpdate() == 1;
        }
    }

    /** Removes a receiver; whether it was there. */
    public static boolean removeReceiver(Connection c, String url) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from alert_receivers where url = ?")) {
            s.setString(1, url);
            return s.executeUpdate() == 1;
        }
    }

    public static List<Receiver> receivers(Connection c) throws SQLException {
        List<Receiver> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select url, added_at, added_by from alert_receivers order by added_at, url");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                out.add(new Receiver(r.getString(1), r.getTimestamp(2).toInstant(), r.getString(3)));
            }
        }
        return out;
    }

    /** The open alerts: pending or firing, oldest first. */
    public static List<Alert> open(Connection c) throws SQLException {
        List<Alert> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select kind, subject, node, detail, since, fired_at, clear_since from alerts"
                + " where resolved_at is null order by since, kind, subject");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                Kind kind = kindOf(r.getString(1));
                if (kind != null) {
                    out.add(new Alert(kind, r.getString(2), r.getString(3), r.getString(4), instant(r, 5), instant(r, 6),
                            instant(r, 7)));
                }
            }
        }
        return out;
    }

    /** The alerts resolved at or after {@code since}, newest first. */
    public static List<Resolved> resolvedSince(Connection c, Instant since) throws SQLException {
        List<Resolved> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select kind, subject, node, detail, since, fired_at, resolved_at from alerts"
                + " where resolved_at >= ? order by resolved_at desc, kind, subject")) {
            s.setTimestamp(1, Timestamp.from(since));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    Kind kind = kindOf(r.getString(1));
                    if (kind != null) {
                        out.add(new Resolved(new Alert(kind, r.getString(2), r.getString(3), r.getString(4), instant(r, 5),
                                instant(r, 6), null), instant(r, 7)));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Records one look's result: the open alerts become {@code open} (each written as it stands), the resolved of
     * {@code changes} are kept with their resolve time, and resolved alerts older than {@code forgetBefore} go.
     */
    public static void save(Connection c, List<Alert> open, List<Change> changes, Instant forgetBefore) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from alerts where resolved_at is null")) {
            s.executeUpdate();
        }
        try (PreparedStatement s = c.prepareStatement("insert into alerts (kind, subject, node, detail, since, fired_at, clear_since,"
                + " resolved_at) values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (kind, subject, since) do update set"
                + " resolved_at = excluded.resolved_at, fired_at = excluded.fired_at, detail = excluded.detail")) {
            for (Alert a : open) {
                bind(s, a, a.clearSince(), null);
                s.addBatch();
            }
            for (Change ch : changes) {
                if (!ch.fired()) {
                    bind(s, ch.alert(), null, ch.at());
                    s.addBatch();
                }
            }
            s.executeBatch();
        }
        try (PreparedStatement s = c.prepareStatement("delete from alerts where resolved_at < ?")) {
            s.setTimestamp(1, Timestamp.from(forgetBefore));
            s.executeUpdate();
        }
    }

    /**
     * The modules whose last take (or, with {@code restores}, last restore) ended failed or rolled back at or after
     * {@code since}: a later one that succeeded, or one under way, clears it.
     */
    public static List<String> failedLately(Connection c, boolean restores, Instant since) throws SQLException {
        String sql = restores
                ? "select module from (select distinct on (module) module, state, ended_at from restores order by module, id desc) last"
                        + " where state in (?, ?) and ended_at >= ? order by module"
                : "select module from (select distinct on (module) module, state, updated_at from takes order by module, epoch desc) last"
                        + " where state in (?, ?) and updated_at >= ? order by module";
        List<String> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, OperationState.FAILED.word());
            s.setString(2, OperationState.ROLLED_BACK.word());
            s.setTimestamp(3, Timestamp.from(since));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(r.getString(1));
                }
            }
        }
        return out;
    }

    private static void bind(PreparedStatement s, Alert a, Instant clearSince, Instant resolvedAt) throws SQLException {
        s.setString(1, a.kind().name());
        s.setString(2, a.subject());
        s.setString(3, a.node());
        s.setString(4, a.detail());
        s.setTimestamp(5, Timestamp.from(a.since()));
        s.setTimestamp(6, a.firedAt() == null ? null : Timestamp.from(a.firedAt()));
        s.setTimestamp(7, clearSince == null ? null : Timestamp.from(clearSince));
        s.setTimestamp(8, resolvedAt == null ? null : Timestamp.from(resolvedAt));
    }

    private static Instant instant(ResultSet r, int column) throws SQLException {
        Timestamp t = r.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    /** The kind a row names; null for one this build does not know (a newer controller wrote it): left alone. */
    private static Kind kindOf(String word) {
        try {
            return Kind.valueOf(word);
        } catch (IllegalArgumentException newer) {
            return null;
        }
    }
}
