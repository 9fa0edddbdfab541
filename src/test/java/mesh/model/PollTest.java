package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PollTest {

    /** A clock that moves only when the wait pauses, and remembers each pause. */
    static final class FakeClock implements Poll.Clock {
        long now;
        final List<Duration> pauses = new ArrayList<>();

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void pause(Duration d) {
            pauses.add(d);
            now += d.toNanos();
        }
    }

    @Test
    void answersAtTheFirstAskThatHasAValueWithoutPausingAfterIt() {
        FakeClock clock = new FakeClock();
        int[] asks = {0};
        Poll.Result<String> r = new Poll(clock).waitFor(Duration.ofSeconds(10), Duration.ofSeconds(1),
                () -> ++asks[0] == 3 ? Poll.got("up") : Poll.notYet("ask " + asks[0]));
        assertEquals(new Poll.Answered<>("up"), r);
        assertEquals(3, asks[0]);
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1)), clock.pauses);
    }

    @Test
    void givesUpAtTheDeadlineWithTheLastReasonAndNeverPausesPastIt() {
        FakeClock clock = new FakeClock();
        int[] asks = {0};
        Poll.Result<String> r = new Poll(clock).waitFor(Duration.ofMillis(2500), Duration.ofSeconds(1),
                () -> Poll.notYet("ask " + ++asks[0]));
        assertEquals(new Poll.TimedOut<String>("ask 4", Duration.ofMillis(2500)), r);
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(500)), clock.pauses);
    }

    @Test
    void aZeroLimitAsksOnce() {
        FakeClock clock = new FakeClock();
        int[] asks = {0};
        assertFalse(new Poll(clock).waitUntil(Duration.ZERO, Duration.ofSeconds(1), () -> ++asks[0] > 1));
        assertEquals(1, asks[0]);
        assertTrue(clock.pauses.isEmpty());
    }

    @Test
    void aYesNoWaitEndsAtItsYes() {
        FakeClock clock = new FakeClock();
        assertTrue(new Poll(clock).waitUntil(Duration.ofSeconds(5), Duration.ofMillis(200), () -> clock.now >= 600_000_000L));
        assertEquals(3, clock.pauses.size());
    }

    @Test
    void anInterruptEndsARealPauseAndKeepsTheFlag() {
        Thread.currentThread().interrupt();
        try {
            Poll.pause(Duration.ofSeconds(5));
        } catch (java.util.concurrent.CancellationException expected) {
            assertTrue(Thread.interrupted());
            return;
        }
        throw new AssertionError("the pause did not end on the interrupt");
    }
}
