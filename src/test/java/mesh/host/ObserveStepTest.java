package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import org.junit.jupiter.api.Test;

/** ObserveStepTest: the look is kept for the status and planned against the declaration; an engine that answers is well. */
class ObserveStepTest {

    @Test
    void keepsWhatItSawAndPlansTheDifference() {
        Declaration d = PassStepsFixture.declaration(2, PassStepsFixture.WEB, PassStepsFixture.DB);
        List<ObservedContainer> all = List.of(PassStepsFixture.running(PassStepsFixture.WEB));
        AgentState state = PassStepsFixture.state();
        AtomicReference<Instant> answered = new AtomicReference<>();
        PassStep.Context pass = new PassStep.Context(d, PassStepsFixture.NOW);
        new ObserveStep(x -> new HostIntake.Unfenced(x, all, Set.of("old"), all), List::of, state, answered::set).run(pass);
        assertEquals(all, state.lastObserved);
        assertEquals(Set.of("old"), state.lastFenced);
        assertEquals(List.of("db.server"), pass.plan.create().stream().map(c -> c.name()).toList());
        assertEquals(1, pass.plan.keep().size());
        assertEquals(PassStepsFixture.NOW, answered.get(), "the engine answered as of the pass's start");
    }

    @Test
    void anEngineThatFailsFailsThePassAndIsNotWell() {
        AtomicReference<Instant> answered = new AtomicReference<>();
        ObserveStep step = new ObserveStep(x -> {
            throw new IllegalStateException("connection refused");
        }, List::of, PassStepsFixture.state(), answered::set);
        assertThrows(IllegalStateException.class, () -> step.run(new PassStep.Context(PassStepsFixture.declaration(1),
                PassStepsFixture.NOW)));
        assertNull(answered.get());
    }
}
