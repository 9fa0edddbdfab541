package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SecretRows holds the SQL of the modules' secrets (V7__secrets.sql): sealed values only, never a
 * value in clear. It runs in the caller's transaction, as {@link PushInputs} does.
 */
public final class SecretRows {

    private SecretRows() {
    }

    /** Row is one secret as the store keeps it. */
    public record Row(String module, String name, int version, String keyId, byte[] sealed, String hmac, Instant setAt,
                      String setBy) {
    }

    private static final String COLUMNS = "module, name, version, key_id, sealed, hmac, set_at, set_by";

    public static List<Row> all(Connection c, String module) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select " + COLUMNS + " from secrets"
                + (module == null ? "" : " where module = ?") + " order by module, name")) {
            if (module != null) {
                s.setString(1, module);
            }
            return rows(s);
        }
    }

    public static Optional<Row> find(Connection c, String module, String name, boolean forUpdate) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select " + COLUMNS + " from secrets where module = ? and name = ?"
                + (forUpdate ? " for update" : ""))) {
            s.setString(1, module);
            s.setString(2, name);
            return rows(s).stream().findFirst();
        }
    }

    /** Writes {@code r} (a new secret, or a new version of one), stamped with the transaction's time. */
    public static Instant put(Connection c, Row r) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into secrets (module, name, version, key_id, sealed, hmac, set_by) values (?, ?, ?, ?, ?, ?, ?)
                on conflict (module, name) do update set version = excluded.version, key_id = excluded.key_id,
                    sealed = excluded.sealed, hmac = excluded.hmac, set_at = now(), set_by = excluded.set_by
                returning set_at""")) {
            s.setString(1, r.module());
            s.setString(2, r.name());
            s.setInt(3, r.version());
            s.setString(4, r.keyId());
            s.setBytes(5, r.sealed());
            s.setString(6, r.hmac());
            s.setString(7, r.setBy());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getTimestamp(1).toInstant();
            }
        }
    }

    /** Re-seals a row under another key (a key rotation): its version, hash and times unchanged. */
    public static void reseal(Connection c, String module, String name, String keyId, byte[] sealed) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("update secrets set key_id = ?, sealed = ? where module = ? and name = ?")) {
            s.setString(1, keyId);
            s.setBytes(2, sealed);
            s.setString(3, module);
            s.setString(4, name);
            s.executeUpdate();
        }
    }

    public static void remove(Connection c, String module, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from secrets where module = ? and name = ?")) {
            s.setString(1, module);
            s.setString(2, name);
            s.executeUpdate();
        }
    }

    private static List<Row> rows(PreparedStatement s) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                rows.add(new Row(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4), rs.getBytes(5),
                        rs.getString(6), rs.getTimestamp(7).toInstant(), rs.getString(8)));
            }
        }
        return rows;
    }
}
