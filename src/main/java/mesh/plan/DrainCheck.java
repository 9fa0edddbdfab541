package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * DrainCheck refuses a drain's bad input before anything moves, naming each problem: an unknown node, a drain onto the
 * node itself, an unknown or cordoned {@code --to}, and K outside {@value #MIN_PARALLEL}–{@value #MAX_PARALLEL}. (A
 * second drain of a node that one is under way on is the store's to refuse.)
 */
public final class DrainCheck {

    public static final int MIN_PARALLEL = 1;
    public static final int MAX_PARALLEL = 8;

    private DrainCheck() {
    }

    /** Whether {@code node} is known (unknown: the drain cannot begin, and nothing else is worth saying). */
    public static List<String> problems(String node, List<String> to, int parallel, Set<String> nodes, Set<String> cordoned) {
        List<String> problems = new ArrayList<>();
        if (node == null || !nodes.contains(node)) {
            problems.add("unknown node " + node + "; 'mesh node list' shows the nodes");
        }
        for (String t : to) {
            if (t.equals(node)) {
                problems.add("--to " + t + ": a drain moves modules off " + node + ", not onto it");
            } else if (!nodes.contains(t)) {
                problems.add("--to " + t + ": unknown node; 'mesh node list' shows the nodes");
            } else if (cordoned.contains(t)) {
                problems.add("--to " + t + ": node " + t + " is cordoned ('mesh node uncordon " + t + "' lifts it)");
            }
        }
        if (parallel < MIN_PARALLEL || parallel > MAX_PARALLEL) {
            problems.add("--parallel " + parallel + ": K is " + MIN_PARALLEL + " to " + MAX_PARALLEL + " takes at once");
        }
        return problems;
    }
}
