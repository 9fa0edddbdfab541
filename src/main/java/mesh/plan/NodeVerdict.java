package mesh.plan;

import java.util.List;
import mesh.model.ComponentState;

/**
 * NodeVerdict is the rule of {@code mesh status}: the first thing an operator must know about a node,
 * from what the store holds of it and what its agent says now, and whether it is all well. First
 * things first: an agent that does not answer, a push that left the node behind, an agent whose
 * records differ from the store's, never pushed, an engine that does not answer, a generation not
 * acknowledged, failing components, a failing edge, then converging; else up to date.
 */
public final class NodeVerdict {

    private NodeVerdict() {
    }

    /** What the store holds of the node: the generation last sent, the one acknowledged, the last push's error. */
    public record Stored(long generation, long acked, String lastError) {
    }

    /** One component as the agent reports it: its state, an error (apply failed), the state's reason. */
    public record Component(String name, ComponentState state, String error, String reason) {
    }

    /**
     * What the agent said: its newest generation, the one applied, whether the engine matched it, the
     * engine's failure, its components, and its edge's refusal (null when the edge is well or absent).
     */
    public record Agent(long generation, long applied, boolean converged, String engineError, List<Component> components,
                        String edgeRefusal) {
    }

    /** Whether all is well, and the words. */
    public record Verdict(boolean ok, String words) {
    }

    /** The verdict; {@code agent} null when it did not answer, {@code agentError} then says why. */
    public static Verdict of(Stored n, Agent agent, String agentError) {
        if (agent == null) {
            return new Verdict(false, agentError);
        }
        if (n.lastError() != null) {
            return new Verdict(false, "behind: " + n.lastError());
        }
        if (agent.generation() != n.acked()) {
            return new Verdict(false, "its agent holds generation " + agent.generation() + ", "
                    + (agent.generation() < n.acked() ? "older" : "newer") + " than the "
                    + n.acked() + " it acknowledged: 'mesh push' sends its declaration again");
        }
        if (n.acked() == 0) {
            return new Verdict(true, "never pushed");
        }
        if (agent.engineError() != null) {
            return new Verdict(false, "its engine does not answer: " + agent.engineError());
        }
        if (n.generation() > n.acked()) {
            return new Verdict(false, "behind: generation " + n.generation() + " was not acknowledged");
        }
        List<String> failing = agent.components().stream().filter(c -> c.error() != null || failed(c.state()))
                .map(c -> c.name() + " (" + (c.error() != null ? c.error()
                        : c.state() + (c.reason() == null ? "" : ": " + c.reason())) + ")").toList();
        if (!failing.isEmpty()) {
            return new Verdict(false, "failing: " + String.join(", ", failing));
        }
        if (agent.edgeRefusal() != null) {
            return new Verdict(false, "edge failing: " + agent.edgeRefusal());
        }
        List<String> notRunning = agent.components().stream().filter(c -> c.state() != ComponentState.RUNNING)
                .map(c -> c.name() + " (" + c.state() + (c.reason() == null ? "" : ": " + c.reason()) + ")").toList();
        if (!agent.converged() || agent.applied() < agent.generation() || !notRunning.isEmpty()) {
            return new Verdict(false, "converging" + (notRunning.isEmpty() ? "" : ": " + String.join(", ", notRunning)));
        }
        return new Verdict(true, "up to date");
    }

    /** A state that waiting alone does not end: the operator must look. */
    public static boolean failed(ComponentState state) {
        return state == ComponentState.FAILING || state == ComponentState.CRASH_LOOPING
                || state == ComponentState.UNHEALTHY;
    }
}
