package mesh.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * TrustStore is the SQL of the operator tokens and the audit trail (V4__operator_tokens_and_audit.sql),
 * kept apart from {@link MeshStore} so that neither grows past a readable size. Its methods take
 * the connection of the verb's transaction ({@link MeshStore#inTransaction}), so an audit row is
 * written with the change it records, or not at all.
 */
@ApplicationScoped
public class TrustStore {

    /** TokenRow is one operator token as stored: its name, the SHA-256 of the token, and its dates. */
    public record TokenRow(String name, byte[] hash, Instant created, String createdBy, Instant revoked,
                           Instant lastWrite) {
    }

    /** AuditRow is one recorded write: when, by which token, which verb, what changed. */
    public record AuditRow(long id, Instant at, String token, String verb, String change) {
    }

    /** Every operator token, revoked ones included, with the time of its last recorded write. */
    public List<TokenRow> tokens(Connection c) throws SQLException {
        List<TokenRow> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("""
                select t.name, t.hash, t.created_at, t.created_by, t.revoked_at,
                       (select max(a.at) from audit a where a.token = t.name)
                from operator_tokens t order by t.created_at, t.name""");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                rows.add(new TokenRow(r.getString(1), r.getBytes(2), instant(r.getTimestamp(3)), r.getString(4),
                        instant(r.getTimestamp(5)), instant(r.getTimestamp(6))));
            }
        }
        return rows;
    }

    /** Every operator token without its last write: what each request is checked against, in one short query. */
    public List<TokenRow> credentials(Connection c) throws SQLException {
        List<TokenRow> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "select name, hash, created_at, created_by, revoked_at from operator_tokens");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                rows.add(new TokenRow(r.getString(1), r.getBytes(2), instant(r.getTimestamp(3)), r.getString(4),
                        instant(r.getTimestamp(5)), null));
            }
        }
        return rows;
    }

    public Optional<TokenRow> token(Connection c, String name) throws SQLException {
        return tokens(c).stream().filter(t -> t.name().equals(name)).findFirst();
    }

    public void addToken(Connection c, String name, byte[] hash, String createdBy) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "insert into operator_tokens (name, hash, created_by) values (?, ?, ?)")) {
            s.setString(1, name);
            s.setBytes(2, hash);
            s.setString(3, createdBy);
            s.executeUpdate();
        }
    }

    /** What {@link #bootstrap} found and did. */
    public enum Bootstrap { MADE, REPLACED, REVOKED, KEPT }

    /**
     * Stores {@code hash} as the bootstrap token {@code name} (a controller's start): made when the store has none,
     * replaced (and so un-revoked) when it differs, left alone, without a write, when it is the same. The table is
     * locked first, in a mode that conflicts with itself and with any insert: two controllers starting at once on one
     * store take turns, and the later finds the earlier's row instead of failing its start on the duplicate key.
     */
    public Bootstrap bootstrap(Connection c, String name, byte[] hash, String by) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("lock table operator_tokens in share row exclusive mode");
        }
        TokenRow row = token(c, name).orElse(null);
        if (row == null) {
            addToken(c, name, hash, by);
            return Bootstrap.MADE;
        }
        if (!MessageDigest.isEqual(row.hash(), hash)) {
            replaceToken(c, name, hash, by);
            return Bootstrap.REPLACED;
        }
        return row.revoked() != null ? Bootstrap.REVOKED : Bootstrap.KEPT;
    }

    /** Gives a token a new hash and clears its revocation (the bootstrap token, when its variable changed). */
    public void replaceToken(Connection c, String name, byte[] hash, String createdBy) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                update operator_tokens set hash = ?, created_at = now(), created_by = ?, revoked_at = null
                where name = ?""")) {
            s.setBytes(1, hash);
            s.setString(2, createdBy);
            s.setString(3, name);
            s.executeUpdate();
        }
    }

    public void revokeToken(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "update operator_tokens set revoked_at = now() where name = ? and revoked_at is null")) {
            s.setString(1, name);
            s.executeUpdate();
        }
    }

    /** Records one write and returns its id (what a push is named by in the declarations it sends). */
    public long record(Connection c, String token, String verb, String change) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "insert into audit (token, verb, change) values (?, ?, ?) returning id")) {
            s.setString(1, token);
            s.setString(2, verb);
            s.setString(3, change);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    /** The audit rows at or after {@code since} (all of them when null), oldest first. */
    public List<AuditRow> audit(Connection c, Instant since) throws SQLException {
        List<AuditRow> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "select id, at, token, verb, change from audit where at >= ? order by at, id")) {
            s.setTimestamp(1, Timestamp.from(since == null ? Instant.EPOCH : since));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows.add(new AuditRow(r.getLong(1), instant(r.getTimestamp(2)), r.getString(3), r.getString(4),
                            r.getString(5)));
                }
            }
        }
        return rows;
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
