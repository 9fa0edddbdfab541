package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import mesh.model.ComponentState;
import mesh.wire.HostStatus;
import org.junit.jupiter.api.Test;

/** LookAgainSoonTest: a starting component asks for a look again soon; a node where all runs or fails does not. */
class LookAgainSoonTest {

    static HostStatus with(ComponentState... states) {
        List<HostStatus.Component> components = new java.util.ArrayList<>();
        for (int i = 0; i < states.length; i++) {
            components.add(new HostStatus.Component("c" + i, "m", states[i], "v1:x", "id", null));
        }
        return new HostStatus("n1", 1, 1, true, null, null, components);
    }

    @Test
    void onlyAStartingComponentAsksForALookSoon() {
        AtomicInteger asked = new AtomicInteger();
        PassStep.Context pass = new PassStep.Context(PassStepsFixture.declaration(1), PassStepsFixture.NOW);
        new LookAgainSoon(() -> with(ComponentState.RUNNING, ComponentState.CRASH_LOOPING), asked::incrementAndGet).run(pass);
        assertEquals(0, asked.get());
        new LookAgainSoon(() -> with(ComponentState.RUNNING, ComponentState.STARTING), asked::incrementAndGet).run(pass);
        assertEquals(1, asked.get());
    }
}
