package mesh.cli;

import java.util.ArrayList;
import java.util.List;
import mesh.wire.PlanCounts;
import mesh.wire.PlanView;
import mesh.wire.PushReport;

/** PlanLines is how a plan reads in text, the same in {@code push} and {@code host apply}: one line per change. */
final class PlanLines {

    private PlanLines() {
    }

    static List<String> of(PlanView plan) {
        List<String> lines = new ArrayList<>();
        plan.create().forEach(c -> lines.add("  create  " + c));
        // a cutover is a replace (counted as one), done start-first through the edge: the preview says which
        plan.replace().forEach(r -> lines.add((r.cutsOver() ? "  cutover " : "  replace ") + r.name() + " (" + r.module()
                + "): " + String.join(", ", r.fields()) + " changed"));
        plan.start().forEach(c -> lines.add("  start   " + c));
        plan.remove().forEach(c -> lines.add("  remove  " + c));
        return lines;
    }

    /**
     * The counts of a plan in words, for one node or a whole push, removals beside replacements: a
     * preview that said only "would replace 0" once hid 40 removals.
     */
    static String counts(PlanCounts c, boolean dryRun) {
        return dryRun
                ? "would create " + c.create() + ", replace " + c.replace() + ", remove " + c.remove() + " and leave "
                        + c.unchanged() + " container(s)"
                : "created " + c.create() + ", replaced " + c.replace() + ", removed " + c.remove() + " and left "
                        + c.unchanged() + " container(s)";
    }

    /** The push's last line: its totals, and how many of them the budget counts (replaced and removed). */
    static String total(PushReport report) {
        PlanCounts c = report.totals() != null ? report.totals() : PushReport.totals(report.nodes());
        int stopped = c.replace() + c.remove();
        return counts(c, report.dryRun()) + " in all; " + stopped + " replaced or removed, which the push budget counts";
    }

    /** One node's counts line, indented under its plan. */
    static String node(PushReport.NodeResult n, boolean dryRun) {
        PlanCounts c = n.counts() != null ? n.counts() : PlanCounts.of(n.plan());
        return "  " + n.node() + ": " + counts(c, dryRun);
    }
}
