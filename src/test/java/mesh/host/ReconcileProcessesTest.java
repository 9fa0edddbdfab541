package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mesh.host.process.ProcessSupervisor.Action;
import mesh.host.process.ProcessSupervisor.Outcome;
import org.junit.jupiter.api.Test;

/** ReconcileProcessesTest: a change is said, a process kept or waiting is not, and a failing supervisor does not end the pass. */
class ReconcileProcessesTest {

    @Test
    void saysWhatItStartedNotWhatItKept() {
        PassStepsFixture.Said info = new PassStepsFixture.Said();
        PassStepsFixture.Said warn = new PassStepsFixture.Said();
        new ReconcileProcesses(now -> List.of(new Outcome("a", Action.KEPT, 7, "running since x"),
                new Outcome("b", Action.RESTARTED, 9, "pid 9, restart 2"), new Outcome("c", Action.WAITING, 0, "next start at y")),
                PassStepsFixture.CLOCK, info, warn).run(new PassStep.Context(PassStepsFixture.declaration(1), PassStepsFixture.NOW));
        assertEquals(List.of("restarted b: pid 9, restart 2"), info);
        assertEquals(List.of(), warn);
    }

    @Test
    void aFailingSupervisorIsSaidAndThePassGoesOn() {
        PassStepsFixture.Said warn = new PassStepsFixture.Said();
        new ReconcileProcesses(now -> {
            throw new IllegalStateException("records unreadable");
        }, PassStepsFixture.CLOCK, s -> { }, warn).run();
        assertEquals(List.of("the process supervisor failed: records unreadable"), warn);
    }

    @Test
    void onlyChangesAreWorthSaying() {
        for (Action a : Action.values()) {
            if (a == Action.KEPT || a == Action.WAITING) {
                assertFalse(ReconcileProcesses.worthSaying(a), a.toString());
            } else {
                assertTrue(ReconcileProcesses.worthSaying(a), a.toString());
            }
        }
    }
}
