package mesh.host;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mesh.model.Declaration;
import org.junit.jupiter.api.Test;

/**
 * AgentStateAppliedTest: a push the engine already matches, accepted while a pass ran, waits for the pass after it to
 * mark it applied; it stops waiting when a newer push arrives, and when its bound runs out.
 */
class AgentStateAppliedTest {

    static AgentState state() {
        return new AgentState("n1", Clock.systemUTC(), new FailureLog(s -> { }, s -> { }));
    }

    static Declaration generation(long g) {
        return new Declaration("n1", null, g, List.of());
    }

    @Test
    void theWaitEndsWhenThePassAfterTheOneInFlightMarksItApplied() throws Exception {
        AgentState state = state();
        Declaration d = generation(6);
        state.desire(d);
        CompletableFuture<Boolean> answer = CompletableFuture.supplyAsync(() -> await(state, 6, Duration.ofSeconds(30)));
        Thread.sleep(200);
        assertFalse(answer.isDone(), "not applied yet: still waiting");
        state.markApplied(d, true);
        assertTrue(answer.get(5, TimeUnit.SECONDS), "applied, told at once");
    }

    @Test
    void aNewerPushEndsTheWaitUnapplied() throws Exception {
        AgentState state = state();
        state.desire(generation(6));
        CompletableFuture<Boolean> answer = CompletableFuture.supplyAsync(() -> await(state, 6, Duration.ofSeconds(30)));
        Thread.sleep(200);
        Declaration newer = generation(7);
        state.desire(newer);
        state.markApplied(newer, false);   // any mark wakes the waiters
        assertFalse(answer.get(5, TimeUnit.SECONDS));
    }

    @Test
    void theWaitIsBounded() throws Exception {
        AgentState state = state();
        state.desire(generation(6));
        long began = System.nanoTime();
        assertFalse(await(state, 6, Duration.ofMillis(300)));
        assertTrue(System.nanoTime() - began >= Duration.ofMillis(300).toNanos(), "waited its bound");
    }

    static boolean await(AgentState state, long generation, Duration upTo) {
        try {
            return state.awaitApplied(generation, upTo);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
