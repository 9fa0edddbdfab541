package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * HostLoopTest: when passes run. The engine's backoff doubles from one interval up to its cap; a forced pass
 * asks anyway; work of the agent runs on the loop's thread, never beside a pass; a failure there is named.
 */
class HostLoopTest {

    static final Instant T = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void theEngineIsAskedAgainOnlyAfterItsBackoffUnlessForced() {
        HostLoop loop = new HostLoop(Duration.ofSeconds(15), forced -> { });
        assertTrue(loop.engineDue(T, false));
        loop.engineFailed(T, 1);
        assertFalse(loop.engineDue(T.plusSeconds(14), false));
        assertTrue(loop.engineDue(T.plusSeconds(14), true));
        assertTrue(loop.engineDue(T.plusSeconds(15), false));
        loop.engineFailed(T, 3);
        assertFalse(loop.engineDue(T.plusSeconds(59), false), "third failure in a row: 60 s");
        loop.engineFailed(T, 20);
        assertTrue(loop.engineDue(T.plusSeconds(120), false), "capped at two minutes");
        loop.engineAnswered();
        assertTrue(loop.engineDue(T, false));
    }

    @Test
    void workOfTheAgentRunsOnTheLoopsThreadBetweenPasses() throws Exception {
        List<String> threads = new CopyOnWriteArrayList<>();
        CountDownLatch passed = new CountDownLatch(2);
        HostLoop loop = new HostLoop(Duration.ofHours(1), forced -> {
            threads.add(Thread.currentThread().getName() + (forced ? " forced" : ""));
            passed.countDown();
        });
        try {
            loop.start();
            assertTrue(loop.passNow(Duration.ofSeconds(5)));
            assertTrue(passed.await(5, TimeUnit.SECONDS));
            assertEquals("mesh-host-loop", loop.onLoop("asking", "ask", () -> Thread.currentThread().getName()));
            assertEquals(List.of("mesh-host-loop", "mesh-host-loop forced"), threads);
            HostFailure failed = assertThrows(HostFailure.class, () -> loop.onLoop("stopping web", "stop module web", () -> {
                throw new IllegalStateException("engine gone");
            }));
            assertEquals("could not stop module web: engine gone", failed.getMessage());
        } finally {
            loop.stop();
        }
    }

    @Test
    void aLookAgainSoonIsQueuedOnceAndOnlyWhenTheIntervalIsLonger() throws Exception {
        List<Boolean> passes = new CopyOnWriteArrayList<>();
        HostLoop loop = new HostLoop(Duration.ofHours(1), passes::add);
        try {
            loop.lookAgainSoon();
            loop.lookAgainSoon();
            Thread.sleep(HostLoop.STARTING_LOOK.toMillis() + 700);
            assertEquals(List.of(false), passes, "two asks, one look");
        } finally {
            loop.stop();
        }
        List<Boolean> quick = new CopyOnWriteArrayList<>();
        HostLoop fast = new HostLoop(Duration.ofMillis(500), quick::add);
        try {
            fast.lookAgainSoon();
            Thread.sleep(HostLoop.STARTING_LOOK.toMillis() + 500);
            assertEquals(List.of(), quick, "the interval itself is sooner");
        } finally {
            fast.stop();
        }
    }
}
