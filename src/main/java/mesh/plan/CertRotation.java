package mesh.plan;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * CertRotation decides, for {@code mesh ca rotate-certs}, which parties get a new certificate: each
 * node's agent and the controller (docs/trust.md, "Rotating certificates"). Pure: what each agent
 * said of its certificate (or why it could not be asked) and the time are passed in, so the rule
 * is tested without a network. An agent is reissued when it was asked for (every node without
 * {@code --node}), answered, serves a certificate and that certificate has not expired (an expired
 * one fails every TLS call, so it cannot be reissued over the network: by hand, as at join). The
 * controller is reissued after the agents, unless {@code --node} narrowed the rotation to nodes.
 */
public final class CertRotation {

    /** The party name of the controller in a rotation's answer. */
    public static final String CONTROLLER = "controller";

    private CertRotation() {
    }

    /** What an agent said when asked for its status: its certificate's expiry (empty on plain HTTP), or why it did not answer. */
    public record Look(Optional<Instant> notAfter, String unreachable) {
        public static Look serving(Instant notAfter) {
            return new Look(Optional.ofNullable(notAfter), null);
        }

        public static Look down(String why) {
            return new Look(Optional.empty(), why);
        }
    }

    /** One party's decision: reissue it, or leave it with its old certificate and say why. */
    public record Decision(String party, boolean reissue, String why, boolean asked) {

        /** A party the operator asked for (every party, unless {@code --node} named others). */
        public Decision(String party, boolean reissue, String why) {
            this(party, reissue, why, true);
        }
    }

    /** The node names asked for that the mesh does not have ({@code --node ghost}): refused before anything is done. */
    public static List<String> unknown(List<String> asked, Set<String> nodes) {
        return asked.stream().filter(n -> !nodes.contains(n)).distinct().toList();
    }

    /**
     * Each party's decision, the nodes in their order, then the controller. {@code asked} empty means
     * every node and the controller; {@code looks} holds an entry for each asked node.
     */
    public static List<Decision> decide(List<String> nodes, List<String> asked, Map<String, Look> looks, Instant now) {
        Set<String> wanted = new LinkedHashSet<>(asked.isEmpty() ? nodes : asked);
        List<Decision> out = new ArrayList<>();
        for (String node : nodes) {
            out.add(node(node, wanted.contains(node), looks.get(node), now));
        }
        out.add(asked.isEmpty() ? new Decision(CONTROLLER, true, null)
                : new Decision(CONTROLLER, false, "not asked (--node names only nodes)", false));
        return out;
    }

    private static Decision node(String node, boolean wanted, Look look, Instant now) {
        if (!wanted) {
            return new Decision(node, false, "not asked (--node)", false);
        }
        if (look == null || look.unreachable() != null) {
            return new Decision(node, false, "unreachable: " + (look == null ? "not asked" : look.unreachable()));
        }
        if (look.notAfter().isEmpty()) {
            return new Decision(node, false, "its agent serves no certificate (plain HTTP, or a version before rotation)");
        }
        Instant notAfter = look.notAfter().get();
        if (!notAfter.isAfter(now)) {
            return new Decision(node, false, "its certificate expired on " + notAfter.atOffset(ZoneOffset.UTC).toLocalDate()
                    + "; no TLS call reaches it, so reissue it on the node as at join (docs/trust.md)");
        }
        return new Decision(node, true, null);
    }

    /** Whether a party left for this reason is a failure of the rotation (an operator's choice, {@code --node}, is not). */
    public static boolean failed(Decision left) {
        return failed(left.reissue(), left.asked());
    }

    /**
     * The same of a party as a rotation's answer names it (reissued, or left and whether it was asked for),
     * so the controller's report, its audit words and the CLI's exit status judge by this one rule.
     */
    public static boolean failed(boolean reissued, boolean asked) {
        return !reissued && asked;
    }

    /**
     * The audit trail's words for a rotation's outcome:
     * {@code certificates reissued: controller, ace, novox; left: n3 (unreachable)}.
     */
    public static String summary(List<String> reissued, Map<String, String> left) {
        StringBuilder s = new StringBuilder("certificates reissued: ")
                .append(reissued.isEmpty() ? "none" : String.join(", ", reissued));
        if (!left.isEmpty()) {
            List<String> parts = new ArrayList<>();
            left.forEach((party, why) -> parts.add(party + " (" + shortly(why) + ")"));
            s.append("; left: ").append(String.join(", ", parts));
        }
        return s.toString();
    }

    private static String shortly(String why) {
        int colon = why.indexOf(':');
        int semicolon = why.indexOf(';');
        int cut = colon < 0 ? semicolon : semicolon < 0 ? colon : Math.min(colon, semicolon);
        return cut < 0 ? why : why.substring(0, cut);
    }
}
