package mesh.plan;

import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;

/**
 * JoinTokenRule decides whether a joining node's token opens {@code POST /v1/join}: the token
 * {@code mesh node add} (or {@code mesh node token NAME --rotate}) printed, held by the store only
 * as its SHA-256, accepted once and for {@link #LIFETIME} after it was made. Pure: the hashes and
 * the time come in. A refusal says which of wrong, spent or expired it was, never the token.
 */
public final class JoinTokenRule {

    /**
     * How long a join token opens the join: a day, the time to carry the printed line to the new
     * machine and run it, as k3s's and Nomad's bootstrap tokens are short-lived; a late join asks
     * for a new one.
     */
    public static final Duration LIFETIME = Duration.ofHours(24);

    private JoinTokenRule() {
    }

    /**
     * Null when {@code presented} (its SHA-256) opens the join of {@code node}, else why not.
     * {@code stored} is the node's stored hash (null once spent, or when none was ever made),
     * {@code made} when it was made (null: never), {@code now} the store's time.
     */
    public static String refusal(String node, byte[] stored, Instant made, byte[] presented, Instant now) {
        String again = "'mesh node token " + node + " --rotate' makes a new one";
        if (made == null) {
            return "node " + node + " has no join token (its certificate was issued on the seat, or it was added before"
                    + " join tokens); " + again;
        }
        if (stored == null) {
            return "spent join token: node " + node + "'s join token made at " + made + " was already used by a join;"
                    + " a join token works once; " + again;
        }
        if (!MessageDigest.isEqual(stored, presented)) {
            return "wrong join token: not node " + node + "'s current join token (the last one 'mesh node add' or"
                    + " 'mesh node token " + node + " --rotate' printed)";
        }
        Instant expiry = expiry(made);
        if (!now.isBefore(expiry)) {
            return "expired join token: node " + node + "'s join token made at " + made + " expired at " + expiry
                    + " (a join token lasts " + LIFETIME.toHours() + " h); " + again;
        }
        return null;
    }

    /** When a join token made at {@code made} stops opening the join. */
    public static Instant expiry(Instant made) {
        return made.plus(LIFETIME);
    }
}
