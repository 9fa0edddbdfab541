package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import mesh.model.BackupVolume;
import mesh.model.DeclarationJson;

/**
 * LeftCopyRecords holds the SQL of the copies a rolled-back take left on a target that did not answer
 * (V11__left_copies.sql): recorded when the take gives the target up, forgotten once its agent deleted them.
 * It runs in the caller's transaction, as {@link TakeRecords} does.
 */
public final class LeftCopyRecords {

    private LeftCopyRecords() {
    }

    /** LeftCopy is a take's copy of a module's volumes left on a node, to be deleted there when its agent answers. */
    public record LeftCopy(String module, String node, long epoch, List<BackupVolume> volumes) {
    }

    /** Records a left copy; recording the same one again (a runner that redoes its step) changes nothing. */
    public static void leave(Connection c, LeftCopy left) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into left_copies (module, node, epoch, volumes) values (?, ?, ?, ?::jsonb)"
                + " on conflict (module, node, epoch) do nothing")) {
            s.setString(1, left.module());
            s.setString(2, left.node());
            s.setLong(3, left.epoch());
            s.setString(4, DeclarationJson.write(left.volumes()));
            s.executeUpdate();
        }
    }

    /** Forgets a left copy: its node's agent deleted it, or holds no copy of that take any more. */
    public static void deleted(Connection c, LeftCopy left) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from left_copies where module = ? and node = ? and epoch = ?")) {
            s.setString(1, left.module());
            s.setString(2, left.node());
            s.setLong(3, left.epoch());
            s.executeUpdate();
        }
    }

    /** Every left copy, oldest first. */
    public static List<LeftCopy> all(Connection c) throws SQLException {
        List<LeftCopy> left = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select module, node, epoch, volumes::text from left_copies order by left_at");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                left.add(new LeftCopy(r.getString(1), r.getString(2), r.getLong(3),
                        List.of(DeclarationJson.MAPPER.readValue(r.getString(4), BackupVolume[].class))));
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException("a left copy's volumes are not readable: " + e.getOriginalMessage(), e);
        }
        return left;
    }
}
