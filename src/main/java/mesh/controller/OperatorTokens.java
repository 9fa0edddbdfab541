package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mesh.model.Conflict;
import mesh.model.InvalidInput;
import mesh.model.NotFound;
import mesh.store.MeshStore;
import mesh.trust.Entropy;
import mesh.store.TrustStore;
import mesh.wire.NewOperatorToken;
import mesh.wire.OperatorToken;
import org.jboss.logging.Logger;

/**
 * OperatorTokens are the named, revocable tokens operators call the controller with
 * ({@code mesh token create|list|revoke}, docs/trust.md). The store keeps only each token's
 * SHA-256; a request's token is hashed and compared with every stored hash in constant time
 * ({@link MessageDigest#isEqual}), and the store is read on every request, so a revocation holds
 * from the very next one. The controller's MESH_CONTROLLER_TOKEN is the bootstrap token, named
 * {@value #BOOTSTRAP}: stored at start, so existing meshes, and the token mesh install writes
 * into the operator's config file, keep working.
 */
@ApplicationScoped
public class OperatorTokens {

    private static final Logger LOG = Logger.getLogger("mesh.controller");

    /** The name of the token MESH_CONTROLLER_TOKEN sets. */
    public static final String BOOTSTRAP = "admin";

    @Inject
    MeshStore store;

    @Inject
    TrustStore trust;

    @Inject
    AuditTrail audit;

    /** When each token was last accepted by this controller (since it started): kept out of the store, so reads write nothing. */
    private final Map<String, Instant> lastSeen = new ConcurrentHashMap<>();

    /** Verdict is a request's token accepted under its name, or refused with the reason to answer. */
    public record Verdict(String name, String refusal) {
    }

    /**
     * The SHA-256 of a token. Operator tokens are 32 random bytes (the bootstrap token, as mesh
     * install makes it, 24), so a plain hash cannot be reversed or guessed and needs no salt or
     * slow password hash; a slow one would only slow down every request.
     */
    /**
     * A new secret token: 32 random bytes as 64 hex digits, so its plain {@link #hash} cannot be
     * reversed. Operator tokens and nodes' join tokens are both made here.
     */
    static String newToken() {
        return Entropy.hex(32);
    }

    static byte[] hash(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java runtime lacks SHA-256", e);
        }
    }

    /**
     * Stores MESH_CONTROLLER_TOKEN as the token {@value #BOOTSTRAP}: made when the store has none,
     * replaced (and so un-revoked) when the variable changed, left alone, without a write, when it is
     * the same. A revoked bootstrap token stays revoked until the variable is changed.
     */
    void bootstrap(String token) {
        byte[] hash = hash(token);
        store.inTransaction(c -> {
            switch (trust.bootstrap(c, BOOTSTRAP, hash, AuditTrail.CONTROLLER)) {
                case MADE -> audit.record(c, "token create", AuditText.bootstrapMade(BOOTSTRAP));
                case REPLACED -> audit.record(c, "token create", AuditText.bootstrapReplaced(BOOTSTRAP));
                case REVOKED -> LOG.warnf("the bootstrap operator token (MESH_CONTROLLER_TOKEN, named %s) is revoked; set a"
                        + " new one to use it again", BOOTSTRAP);
                case KEPT -> { }
            }
            return null;
        });
    }

    /** Which token a request carries, by name, or why it is refused. */
    public Verdict authenticate(String presented) {
        byte[] given = hash(presented);
        List<TrustStore.TokenRow> rows = store.inTransaction(trust::credentials);
        TrustStore.TokenRow match = null;
        for (TrustStore.TokenRow row : rows) {
            if (MessageDigest.isEqual(row.hash(), given)) {
                match = row;
            }
        }
        if (match == null) {
            return new Verdict(null, "wrong bearer token: it is none of this controller's operator tokens"
                    + " ('mesh token list' shows their names)");
        }
        if (match.revoked() != null) {
            return new Verdict(null, "operator token " + match.name() + " was revoked at " + match.revoked()
                    + "; ask an operator for a new one ('mesh token create NAME')");
        }
        lastSeen.put(match.name(), Instant.now());
        return new Verdict(match.name(), null);
    }

    /** Makes a token named {@code name} and returns it, shown this once; names are never reused. */
    public NewOperatorToken create(String name) {
        if (name == null || !NodeInput.NAME.matcher(name).matches() || name.length() > 63
                || name.equals(AuditTrail.CONTROLLER)) {
            throw new InvalidInput(List.of("token name: lower-case letters, digits and '-', at most 63, not '"
                    + AuditTrail.CONTROLLER + "'; got '" + name + "'"));
        }
        String token = newToken();
        return store.inTransaction(c -> {
            TrustStore.TokenRow existing = trust.token(c, name).orElse(null);
            if (existing != null) {
                throw new Conflict("operator token " + name + " already exists" + (existing.revoked() != null
                        ? " (revoked; a name is never given to a second token, so the audit stays unambiguous)" : ""));
            }
            trust.addToken(c, name, hash(token), audit.who());
            audit.record(c, "token create", AuditText.tokenMade(name));
            return new NewOperatorToken(name, token);
        });
    }

    public List<OperatorToken> list() {
        return store.inTransaction(trust::tokens).stream().map(this::view).toList();
    }

    /** Revokes a token: refused from the next request on. The last token that is not revoked cannot be. */
    public OperatorToken revoke(String name) {
        return store.inTransaction(c -> {
            List<TrustStore.TokenRow> rows = trust.tokens(c);
            TrustStore.TokenRow row = rows.stream().filter(t -> t.name().equals(name)).findFirst()
                    .orElseThrow(() -> new NotFound("unknown operator token " + name + "; 'mesh token list' shows them"));
            if (row.revoked() != null) {
                throw new Conflict("operator token " + name + " was already revoked at " + row.revoked());
            }
            if (rows.stream().noneMatch(t -> t.revoked() == null && !t.name().equals(name))) {
                throw new Conflict("operator token " + name + " is the last one that is not revoked; revoking it would"
                        + " lock every operator out: 'mesh token create NAME' another first");
            }
            trust.revokeToken(c, name);
            audit.record(c, "token revoke", AuditText.tokenRevoked(name));
            return view(trust.token(c, name).orElseThrow());
        });
    }

    private OperatorToken view(TrustStore.TokenRow t) {
        Instant seen = lastSeen.get(t.name());
        Instant used = seen == null ? t.lastWrite() : t.lastWrite() == null || seen.isAfter(t.lastWrite()) ? seen : t.lastWrite();
        return new OperatorToken(t.name(), iso(t.created()), t.createdBy(), iso(used), iso(t.revoked()));
    }

    private static String iso(Instant i) {
        return i == null ? null : i.toString();
    }
}
