package mesh.wire;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;

/**
 * PushReport is what a push did, or with {@code --dry-run} would do, per node.
 *
 * @param replacements containers the push replaces (or would), summed over the nodes it sends to, as judged
 * @param removals     containers the push removes (or would), the same way; the budget counts both together
 * @param totals       what the push does (or would) to containers, summed over the nodes' plans below
 */
public record PushReport(boolean dryRun, int replacements, List<NodeResult> nodes, List<String> notes, int removals,
                         PlanCounts totals) {

    /** A report whose totals are its nodes' counts summed, and whose removals are their removals. */
    public PushReport(boolean dryRun, int replacements, List<NodeResult> nodes, List<String> notes) {
        this(dryRun, replacements, nodes, notes, totals(nodes).remove(), totals(nodes));
    }

    /** The nodes' counts summed (nodes without a plan count nothing). */
    public static PlanCounts totals(List<NodeResult> nodes) {
        return PlanCounts.sum(nodes.stream().map(NodeResult::counts).filter(java.util.Objects::nonNull).toList());
    }

    /**
     * NodeResult is one node's part of a push.
     *
     * @param outcome    sent, unchanged, behind (could not be reached or refused), or would-send (dry run)
     * @param leftBehind it was not named on the command line but differed, so it was sent too
     * @param counts     its plan counted (created, replaced, removed, left); absent without a plan
     */
    public record NodeResult(String node, Outcome outcome, long generation, boolean leftBehind, PlanView plan,
                             String error, PlanCounts counts) {

        /** A node's result, its counts those of its plan. */
        public NodeResult(String node, Outcome outcome, long generation, boolean leftBehind, PlanView plan, String error) {
            this(node, outcome, generation, leftBehind, plan, error, plan == null ? null : PlanCounts.of(plan));
        }
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
