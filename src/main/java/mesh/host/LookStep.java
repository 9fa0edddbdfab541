package mesh.host;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.Vitals;

/**
 * LookStep looks at how each component does (running, restarts, health: {@link ComponentLook}), keeping a
 * component's last exit across looks, and notes which fail ({@link FailureLog}: one line when a failure
 * starts, one when it ends). Its look is over the pass's generation, which the status then judges.
 */
final class LookStep implements PassStep {

    /** What a look saw of each component of a declaration, by name. */
    interface Look {
        Map<String, Vitals> look(Declaration d, List<ObservedContainer> observed, java.time.Instant now);
    }

    private final Look look;
    private final AgentState state;
    private final Clock clock;

    LookStep(Look look, AgentState state, Clock clock) {
        this.look = look;
        this.state = state;
        this.clock = clock;
    }

    @Override
    public void run(Context pass) {
        state.lastVitals = merged(look.look(pass.view.declaration(), state.lastObserved, clock.instant()), state.lastVitals);
        state.failures.noteComponents(pass.failing, clock.instant());
        state.judgedGeneration = pass.declaration.generation();
    }

    /** What was seen now, each keeping the last exit seen before when it has none of its own. */
    static Map<String, Vitals> merged(Map<String, Vitals> now, Map<String, Vitals> before) {
        Map<String, Vitals> looked = new HashMap<>();
        now.forEach((name, v) -> looked.put(name, v.orLastExitOf(before.get(name))));
        return Map.copyOf(looked);
    }
}
