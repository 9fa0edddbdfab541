package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import mesh.model.ComponentSpec;
import mesh.model.HealthCheck;
import mesh.model.Vitals;
import mesh.model.ComponentState;
import org.junit.jupiter.api.Test;

/** ComponentVerdictTest: running means running and healthy; a crash loop and a failed apply are definite. */
class ComponentVerdictTest {

    static final Instant NOW = Instant.parse("2026-11-30T20:00:00Z");

    static ComponentSpec spec(HealthCheck health) {
        return mesh.model.Specs.component("web").module("m").health(health).build();
    }

    static ComponentVerdict judge(HealthCheck health, Vitals v, String failure) {
        return ComponentVerdict.judge(spec(health), true, false, v == null || v.running(), v, failure, NOW);
    }

    static Vitals up(int restarts, long secondsAgo, String healthFailure) {
        return new Vitals(true, restarts, restarts > 0 ? "exit code 1" : null, NOW.minusSeconds(secondsAgo), healthFailure);
    }

    static final HealthCheck CHECK = new HealthCheck(null, null, List.of("true"), 10);

    @Test
    void runningOnlyWhenTheHealthCheckPasses() {
        assertEquals(ComponentState.RUNNING, judge(CHECK, up(0, 100, null), null).state());
        assertEquals(new ComponentVerdict(ComponentState.STARTING, "health command exited 1"),
                judge(CHECK, up(0, 5, "health command exited 1"), null));
        assertEquals(new ComponentVerdict(ComponentState.UNHEALTHY, "health check not passing after 10s: health command exited 1"),
                judge(CHECK, up(0, 11, "health command exited 1"), null));
        assertEquals(ComponentState.RUNNING, judge(null, up(0, 1, null), null).state(), "no check: running is enough");
    }

    @Test
    void aComponentThatKeepsEndingIsCrashLoopingWithItsCountAndLastExit() {
        ComponentVerdict looping = judge(CHECK, new Vitals(false, 3, "exit code 7", NOW.minusSeconds(1), null), null);
        assertEquals(new ComponentVerdict(ComponentState.CRASH_LOOPING, "3 restarts, last exit code 7"), looping);
        assertTrue(looping.definite());
        assertEquals(ComponentState.CRASH_LOOPING, judge(CHECK, up(5, 10, null), null).state(), "up again, briefly");
        assertEquals(ComponentState.RUNNING, judge(CHECK, up(5, 31, null), null).state(), "up for longer: settled");
        assertEquals(ComponentState.STOPPED, judge(CHECK, new Vitals(false, 2, "exit code 7", null, null), null).state());
    }

    /**
     * A container that runs again says nothing of how it ended (the engine resets its exit code at start): a
     * loop is not named until a look sees how it ended, and a look that cannot tell keeps what an earlier one saw.
     */
    @Test
    void aCrashLoopIsNamedWithTheExitALookSawNeverWithTheResetOne() {
        Vitals upAgain = new Vitals(true, 3, null, NOW.minusMillis(300), null, NOW);
        ComponentVerdict unseen = judge(CHECK, upAgain, null);
        assertEquals(ComponentState.STARTING, unseen.state(), unseen.toString());
        assertEquals(false, unseen.definite());

        Vitals earlier = new Vitals(false, 2, "exit code 3", null, null, NOW.minusSeconds(1));
        ComponentVerdict named = judge(CHECK, upAgain.orLastExitOf(earlier), null);
        assertEquals(ComponentState.CRASH_LOOPING, named.state());
        assertEquals("3 restarts, last exit code 3", named.reason());

        Vitals replaced = new Vitals(true, 0, null, NOW.minusSeconds(1), null, NOW);
        assertEquals(null, replaced.orLastExitOf(earlier).lastExit(), "a new container (fewer restarts) keeps nothing of the old one");
    }

    @Test
    void aFailedApplyComesFirstAndIsDefinite() {
        ComponentVerdict failing = judge(CHECK, null, "image x:1 is not on this engine and pulling it failed: Get \"https://r/\": no");
        assertEquals(ComponentState.FAILING, failing.state());
        assertEquals("image x:1 is not on this engine and pulling it failed: Get \"https://r/\": no", failing.reason());
        assertTrue(failing.definite());
        assertFalse(judge(CHECK, up(0, 11, "no"), null).definite(), "unhealthy may still pass: not definite");
        assertEquals(ComponentState.MISSING, ComponentVerdict.judge(spec(CHECK), false, false, false, null, null, NOW).state());
        assertEquals(ComponentState.OUTDATED, ComponentVerdict.judge(spec(CHECK), true, true, true, null, null, NOW).state());
    }

    @Test
    void upForAnInstantAtTheLastLookIsNoProofItRuns() {
        Vitals instant = new Vitals(true, 0, null, NOW.minusMillis(200), null, NOW.minusMillis(100));
        assertEquals(new ComponentVerdict(ComponentState.STARTING, "up for less than 3s at the last look"),
                judge(null, instant, null));
        Vitals settled = new Vitals(true, 0, null, NOW.minusSeconds(10), null, NOW.minusSeconds(5));
        assertEquals(ComponentState.RUNNING, judge(null, settled, null).state());
    }
}
