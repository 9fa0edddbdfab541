package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import mesh.model.DeclarationJson;
import mesh.plan.Backup;
import mesh.model.TakeStep;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import mesh.model.BackupVolume;

/**
 * BackupRecords holds the SQL of backups and restores (V9__backups.sql): each record with the step it carries out
 * next, and the lost copies waiting for their node to answer. It runs in the caller's transaction.
 */
public final class BackupRecords {

    private BackupRecords() {
    }

    /** Row is a backup's record with what the store adds: how it began, when, and its last verify. */
    public record Row(Backup backup, String trigger, Instant startedAt, Instant endedAt, Instant verifiedAt,
                      String verifyError, Instant removedAt) {
    }

    /** A new backup's number, before its record is written (the tag carries it). */
    public static long nextId(Connection c) throws SQLException {
        return single(c, "select nextval('backups_id_seq')");
    }

    public static void insert(Connection c, Backup b, String trigger) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "insert into backups (id, module, state, trigger, record) values (?, ?, ?, ?, ?::jsonb)")) {
            s.setLong(1, b.id());
            s.setString(2, b.module());
            s.setString(3, b.step().state().word());
            s.setString(4, trigger);
            s.setString(5, DeclarationJson.write(b));
            s.executeUpdate();
        }
    }

    public static void save(Connection c, Backup b) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("update backups set state = ?, record = ?::jsonb,"
                + " ended_at = case when ? then coalesce(ended_at, now()) else null end where id = ?")) {
            s.setString(1, b.step().state().word());
            s.setString(2, DeclarationJson.write(b));
            s.setBoolean(3, b.step().ended());
            s.setLong(4, b.id());
            s.executeUpdate();
        }
    }

    public static void verified(Connection c, long id, String error) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("update backups set verified_at = now(), verify_error = ? where id = ?")) {
            s.setString(1, error);
            s.setLong(2, id);
            s.executeUpdate();
        }
    }

    public static void removed(Connection c, long id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("update backups set removed_at = now() where id = ?")) {
            s.setLong(1, id);
            s.executeUpdate();
        }
    }

    private static final String ROW = "select record::text, trigger, started_at, ended_at, verified_at, verify_error, removed_at"
            + " from backups ";

    public static Optional<Row> byId(Connection c, long id) throws SQLException {
        List<Row> rows = rows(c, ROW + "where id = ?", id);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /** The module's backups (all modules' when null), newest first, not removed by retention unless {@code removed}. */
    public static List<Row> list(Connection c, String module, boolean removed) throws SQLException {
        String where = (module == null ? "where true" : "where module = ?") + (removed ? "" : " and removed_at is null");
        return module == null ? rows(c, ROW + where + " order by id desc") : rows(c, ROW + where + " order by id desc", module);
    }

    public static List<Row> running(Connection c) throws SQLException {
        return rows(c, ROW + "where state = 'running' order by id");
    }

    private static List<Row> rows(Connection c, String sql, Object... params) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows.add(new Row(read(r.getString(1), Backup.class), r.getString(2), instant(r, 3),
                            instant(r, 4), instant(r, 5), r.getString(6), instant(r, 7)));
                }
            }
        }
        return rows;
    }

    /**
     * RestoreRow is a restore's record (a take from a backup, {@link Take#restoring}) and when it began and ended.
     * {@link #id} is the restore's number.
     */
    public record RestoreRow(Take restore, Instant startedAt, Instant endedAt) {
        public long id() {
            return restore.fromBackup().restore();
        }
    }

    /**
     * StoredRestore is a restore's record as the restores table keeps it, in the shape restores always had (a record
     * written by an earlier build reads the same): its take's fields with the backup's volumes, and the node the operator
     * said is down ({@code down}: written only when given, so a record without it reads as before).
     */
    public record StoredRestore(long id, String module, long backup, String from, String to, long epoch, boolean lost,
                         TakeStep step, List<BackupVolume> volumes, boolean started, String error, String problem,
                         String down) {

        static StoredRestore of(Take t) {
            return new StoredRestore(t.fromBackup().restore(), t.module(), t.fromBackup().backup(), t.from(), t.to(), t.epoch(),
                    t.lost(), t.step(), t.volumes().stream().map(Take.Volume::asBackup).toList(),
                    TakePlan.targetMayRun(t) || TakePlan.targetStarted(t), t.error(), t.problem(), t.fromBackup().down());
        }

        Take take() {
            return new Take(module, from, to, epoch, false, step, volumes == null ? List.of()
                    : volumes.stream().map(Take.Volume::of).toList(), null, error, problem, false,
                    new Take.FromBackup(id, backup, lost, down));
        }
    }

    public static long nextRestoreId(Connection c) throws SQLException {
        return single(c, "select nextval('restores_id_seq')");
    }

    public static void insert(Connection c, Take r) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into restores (id, module, state, record) values (?, ?, ?, ?::jsonb)")) {
            s.setLong(1, r.fromBackup().restore());
            s.setString(2, r.module());
            s.setString(3, r.step().state().word());
            s.setString(4, DeclarationJson.write(StoredRestore.of(r)));
            s.executeUpdate();
        }
    }

    public static void save(Connection c, Take r) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("update restores set state = ?, record = ?::jsonb,"
                + " ended_at = case when ? then coalesce(ended_at, now()) else null end where id = ?")) {
            s.setString(1, r.step().state().word());
            s.setString(2, DeclarationJson.write(StoredRestore.of(r)));
            s.setBoolean(3, r.step().ended());
            s.setLong(4, r.fromBackup().restore());
            s.executeUpdate();
        }
    }

    private static final String RESTORE_ROW = "select record::text, started_at, ended_at from restores ";

    public static Optional<RestoreRow> restore(Connection c, long id) throws SQLException {
        List<RestoreRow> rows = restoreRows(c, RESTORE_ROW + "where id = ?", id);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /** The restore {@code id}, its row locked until the transaction ends: as {@link TakeRecords#locked}, for a restore's switch. */
    public static Optional<RestoreRow> lockedRestore(Connection c, long id) throws SQLException {
        List<RestoreRow> rows = restoreRows(c, RESTORE_ROW + "where id = ? for update", id);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    public static Optional<RestoreRow> runningRestore(Connection c, String module) throws SQLException {
        List<RestoreRow> rows = restoreRows(c, RESTORE_ROW + "where state = 'running' and module = ?", module);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    public static List<RestoreRow> runningRestores(Connection c) throws SQLException {
        return restoreRows(c, RESTORE_ROW + "where state = 'running' order by id");
    }

    private static List<RestoreRow> restoreRows(Connection c, String sql, Object... params) throws SQLException {
        List<RestoreRow> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows.add(new RestoreRow(read(r.getString(1), StoredRestore.class).take(), instant(r, 2), instant(r, 3)));
                }
            }
        }
        return rows;
    }

    /** LostCopy is a module's copy on a node that did not answer at a restore, to be fenced there when it answers. */
    public record LostCopy(String module, String node, long epoch, List<BackupVolume> volumes, Instant fencedAt) {
    }

    public static void lose(Connection c, String module, String node, long epoch, List<BackupVolume> volumes) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into lost_copies (module, node, epoch, volumes) values (?, ?, ?, ?::jsonb)"
                + " on conflict (module, node, epoch) do nothing")) {
            s.setString(1, module);
            s.setString(2, node);
            s.setLong(3, epoch);
            s.setString(4, DeclarationJson.write(volumes));
            s.executeUpdate();
        }
    }

    /** Forgets a lost mark (a restore that rolled back: the node's copy is the module's again). */
    public static void unlose(Connection c, String module, String node, long epoch) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from lost_copies where module = ? and node = ? and epoch = ?")) {
            s.setString(1, module);
            s.setString(2, node);
            s.setLong(3, epoch);
            s.executeUpdate();
        }
    }

    public static void fenced(Connection c, String module, String node, long epoch) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("update lost_copies set fenced_at = now() where module = ? and node = ?"
                + " and epoch = ?")) {
            s.setString(1, module);
            s.setString(2, node);
            s.setLong(3, epoch);
            s.executeUpdate();
        }
    }

    /** The modules of which each node holds a lost copy not fenced yet, by node (nodes without one absent). */
    public static Map<String, SortedSet<String>> unfencedByNode(Connection c) throws SQLException {
        Map<String, SortedSet<String>> byNode = new TreeMap<>();
        for (LostCopy l : unfenced(c)) {
            byNode.computeIfAbsent(l.node(), n -> new TreeSet<>()).add(l.module());
        }
        return byNode;
    }

    /** Forgets every lost copy on {@code node} not fenced yet ({@code mesh node remove --forget-lost}); how many. */
    public static int forgetUnfenced(Connection c, String node) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from lost_copies where node = ? and fenced_at is null")) {
            s.setString(1, node);
            return s.executeUpdate();
        }
    }

    /** The lost copies no agent has confirmed fenced yet. */
    public static List<LostCopy> unfenced(Connection c) throws SQLException {
        List<LostCopy> lost = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select module, node, epoch, volumes::text, fenced_at from lost_copies"
                + " where fenced_at is null order by lost_at"); ResultSet r = s.executeQuery()) {
            while (r.next()) {
                lost.add(new LostCopy(r.getString(1), r.getString(2), r.getLong(3), List.of(read(r.getString(4),
                        BackupVolume[].class)), null));
            }
        }
        return lost;
    }

    private static <T> T read(String json, Class<T> type) throws SQLException {
        try {
            return DeclarationJson.MAPPER.readValue(json, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException("a backup record cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    private static long single(Connection c, String sql) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql); ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }

    private static Instant instant(ResultSet r, int column) throws SQLException {
        Timestamp t = r.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
