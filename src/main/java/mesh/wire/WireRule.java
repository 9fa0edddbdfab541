package mesh.wire;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * WireRule is which agents a controller speaks to: a controller at wire level L pushes to agents at L and L + 1, so
 * during an upgrade the agents move first and the controller last, and at every moment the controller can still push
 * to every agent (docs/upgrade.md). An agent outside the rule is held back from a push, that node alone, with both
 * builds and the command that fixes it. A build from before levels counts as level {@link Build#FIRST_WIRE}, so a
 * mesh of such builds is never held back. Pure.
 */
public final class WireRule {

    private WireRule() {
    }

    /** Whether a controller of {@code controller}'s build pushes to an agent of {@code agent}'s. */
    public static boolean speaks(Build controller, Build agent) {
        int c = controller.wireLevel();
        int a = agent.wireLevel();
        return a == c || a == c + 1;
    }

    /** Why node {@code node}'s agent is held back from this controller's push, or empty when the rule allows it. */
    public static Optional<String> heldBack(String node, Build controller, Build agent) {
        return refusal(node, controller, agent, "so its declaration was not sent (the other nodes' were)");
    }

    /**
     * Why this controller does not speak to node {@code node}'s agent, with {@code notDone} (what it therefore did not
     * do, e.g. "so its declaration was not sent") and the command that fixes it; empty when the rule allows it.
     */
    public static Optional<String> refusal(String node, Build controller, Build agent, String notDone) {
        if (speaks(controller, agent)) {
            return Optional.empty();
        }
        int c = controller.wireLevel();
        int a = agent.wireLevel();
        String both = "node " + node + "'s agent runs mesh " + agent.words() + " (wire level " + a + "); this controller runs mesh "
                + controller.words() + " (wire level " + c + ") and speaks only to agents at levels " + c + " and " + (c + 1)
                + ", " + notDone + ": ";
        if (a < c) {
            return Optional.of(both + "the agent is older than the controller; run `mesh upgrade --node " + node
                    + "` with this controller's build to move it");
        }
        return Optional.of(both + "the agent is newer than the controller can follow; run `mesh upgrade` with node " + node
                + "'s build (mesh " + agent.words() + ") to move the other agents and the controller to it");
    }

    /** The build an agent reports in its status; one that names none is a build from before builds were reported. */
    public static Build reported(Build agent) {
        return agent != null ? agent : new Build("(a build that names none)", null);
    }

    /** The nodes among {@code agents} (node to the build its agent reports) held back from this controller's push, each with why. */
    public static Map<String, String> heldBack(Build controller, Map<String, Build> agents) {
        Map<String, String> held = new LinkedHashMap<>();
        agents.forEach((node, build) -> heldBack(node, controller, build).ifPresent(m -> held.put(node, m)));
        return held;
    }
}
