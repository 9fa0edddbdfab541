package mesh.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * UpgradePlan is what {@code mesh upgrade} does, decided from what the mesh says of itself (docs/upgrade.md): which
 * agents move to the new build and in which order, and when the controller moves. Nodes already on the build are left
 * alone, so an upgrade that stopped half-way is carried on by running it again. The order keeps the wire rule
 * (a controller at level L speaks to agents at L and L + 1) true at every step: to a build at the controller's level or
 * the next, the joined nodes by name, then the seat (it runs the controller, the store and the artifact store: a new
 * agent that fails, fails first where it stops none of them), then the controller; back to the level below the
 * controller's (going back), the controller first. Any other distance is refused: it takes a build in between. Pure.
 */
public final class UpgradePlan {

    private UpgradePlan() {
    }

    /** Level is a build as the plan needs it: its words for the operator, and its wire level. */
    public record Level(String words, int wire) {
    }

    /**
     * Agent is one node's agent as its status said: its build (null when it did not answer), whether the node is the
     * seat (it runs the controller), whether it already runs the new build.
     */
    public record Agent(String node, boolean seat, Level build, boolean current) {
    }

    /** Step is one move: a node's agent ({@code node} set), or the controller ({@code node} null). */
    public record Step(String node) {

        public static final Step CONTROLLER = new Step(null);

        public boolean controller() {
            return node == null;
        }

        public String words() {
            return node == null ? "the controller" : "node " + node + "'s agent";
        }
    }

    /** The steps in order, the nodes already on the build, and a refusal (then no steps). */
    public record Plan(List<Step> steps, List<String> already, boolean controllerAlready, String refusal) {
    }

    /**
     * The plan that moves {@code agents} (all the mesh's nodes) and the controller to {@code target}; only the nodes
     * {@code named} (and never the controller) when it is not empty.
     */
    public static Plan plan(Level target, Level controller, boolean controllerCurrent, List<Agent> agents, List<String> named) {
        Set<String> known = new TreeSet<>();
        agents.forEach(a -> known.add(a.node()));
        List<String> unknown = named.stream().filter(n -> !known.contains(n)).toList();
        if (!unknown.isEmpty()) {
            return refused("no node " + String.join(", ", unknown) + " in this mesh (it has " + String.join(", ", known) + ")");
        }
        List<Agent> chosen = agents.stream().filter(a -> named.isEmpty() || named.contains(a.node())).toList();
        List<String> silent = chosen.stream().filter(a -> a.build() == null).map(Agent::node).toList();
        if (!silent.isEmpty()) {
            return refused("the agent of " + String.join(", ", silent) + " did not answer: an upgrade moves a node only while"
                    + " its agent answers (bring it back, or name the other nodes with --node)");
        }
        int t = target.wire();
        int c = controller.wire();
        if (t != c && t != c + 1 && t != c - 1) {
            return refused("this build (mesh " + target.words() + ") is at wire level " + t + " and the controller (mesh "
                    + controller.words() + ") at " + c + ": a controller speaks to agents at its level and the next only,"
                    + " so move the mesh through a build at level " + (t > c ? c + 1 : c - 1) + " first");
        }
        if (!named.isEmpty() && t != c && t != c + 1) {
            return refused("this build (mesh " + target.words() + ", wire level " + t + ") is older than the controller's"
                    + " (level " + c + "), which would no longer speak to the nodes moved: go back with 'mesh upgrade' and"
                    + " no --node (the controller first)");
        }
        List<Step> agentSteps = new ArrayList<>();
        chosen.stream().filter(a -> !a.current())
                .sorted(Comparator.comparing((Agent a) -> a.seat()).thenComparing(Agent::node))
                .forEach(a -> agentSteps.add(new Step(a.node())));
        List<String> already = chosen.stream().filter(Agent::current).map(Agent::node).sorted().toList();
        boolean moveController = named.isEmpty() && !controllerCurrent;
        List<Step> steps = new ArrayList<>();
        if (moveController && t < c) {
            steps.add(Step.CONTROLLER);   // going back: the controller first, so it still speaks to the agents not yet moved
        }
        steps.addAll(agentSteps);
        if (moveController && t >= c) {
            steps.add(Step.CONTROLLER);
        }
        return new Plan(List.copyOf(steps), already, named.isEmpty() && controllerCurrent, null);
    }

    private static Plan refused(String why) {
        return new Plan(List.of(), List.of(), false, why);
    }
}
