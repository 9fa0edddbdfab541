package mesh.wire;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;

/**
 * PushReport is what a push did, or with {@code --dry-run} would do, per node.
 *
 * @param replacements containers the push replaces (or would), summed over the nodes it sends to
 */
public record PushReport(boolean dryRun, int replacements, List<NodeResult> nodes, List<String> notes) {

    /**
     * NodeResult is one node's part of a push.
     *
     * @param outcome    sent, unchanged, behind (could not be reached or refused), or would-send (dry run)
     * @param leftBehind it was not named on the command line but differed, so it was sent too
     */
    public record NodeResult(String node, Outcome outcome, long generation, boolean leftBehind, PlanView plan,
                             String error) {
    }

    /** Outcome is what a push did to one node; in JSON, its lower-case name with '-' for '_'. */
    public enum Outcome {
        SENT, UNCHANGED, BEHIND, WOULD_SEND;

        @JsonValue
        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        @Override
        public String toString() {
            return json();
        }
    }

    public boolean complete() {
        return nodes.stream().noneMatch(n -> n.outcome() == Outcome.BEHIND);
    }
}
