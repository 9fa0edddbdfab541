package mesh.host;

import java.time.Instant;
import java.util.Map;
import mesh.model.Declaration;
import mesh.plan.HostPlan;

/**
 * PassStep is one concern of the agent's pass (Nomad's runner hooks are the model: one hook per concern,
 * run in a stated order by a runner that knows none of them; {@link HostPass} is that runner and holds
 * the order). A step that throws ends the pass as an engine failure; a step whose failure must not end
 * the pass (processes, bundles, the edge) catches its own.
 */
interface PassStep {

    void run(Context pass);

    /**
     * Context is one pass's own values, handed from step to step: the declaration it keeps the node at and
     * when it began, then what the observe step saw and planned, then what the apply step did.
     */
    final class Context {
        final Declaration declaration;
        final Instant began;
        /** The declaration and what runs, without the fenced modules: set by {@link ObserveStep}. */
        HostIntake.Unfenced view;
        HostPlan plan;
        /** The components the apply failed, with why (by name): set by {@link ApplyStep}. */
        Map<String, String> failing = Map.of();
        /** Whether the engine matched the declaration after the apply: set by {@link ApplyStep}. */
        boolean done;

        Context(Declaration declaration, Instant began) {
            this.declaration = declaration;
            this.began = began;
        }
    }
}
