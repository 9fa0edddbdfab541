package mesh.plan;

import java.util.Optional;
import java.util.Set;

/**
 * Cordons is the cordon's one rule ({@code mesh node cordon}): nothing new goes onto a cordoned node (an assignment, a
 * take, a restore), and what runs there stays. Asking again for what a module already has there (its assignment, the
 * node it runs on) is not new, so it is not refused.
 */
public final class Cordons {

    private Cordons() {
    }

    /**
     * Why {@code verb} of {@code module} onto {@code node} is refused, naming the node; empty when it may go on.
     * {@code already}: the module is already assigned there (assign) or runs there (take, restore).
     */
    public static Optional<String> refusal(String verb, String module, String node, boolean already, Set<String> cordoned) {
        if (node == null || already || !cordoned.contains(node)) {
            return Optional.empty();
        }
        return Optional.of(verb + " of module " + module + " onto node " + node + " refused: node " + node
                + " is cordoned (no new work goes onto it; 'mesh node uncordon " + node + "' lifts it)");
    }
}
