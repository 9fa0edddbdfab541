package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PollTest {

    @Test
    void answersAtTheFirstAskThatHasAValueWithoutPausingAfterIt() {
        FakePollClock clock = new FakePollClock();
        int[] asks = {0};
        Poll.Result<String> r = new Poll(clock).waitFor(Duration.ofSeconds(10), Duration.ofSeconds(1),
                () -> ++asks[0] == 3 ? Poll.got("up") : Poll.notYet("ask " + asks[0]));
        assertEquals(new Poll.Answered<>("up"), r);
        assertEquals(3, asks[0]);
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1)), clock.pauses);
    }

    @Test
    void givesUpAtTheDeadlineWithTheLastReasonAndNeverPausesPastIt() {
        FakePollClock clock = new FakePollClock();
        int[] asks = {0};
        Poll.Result<String> r = new Poll(clock).waitFor(Duration.ofMillis(2500), Duration.ofSeconds(1),
                () -> Poll.notYet("ask " + ++asks[0]));
        assertEquals(new Poll.TimedOut<String>("ask 4", Duration.ofMillis(2500)), r);
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(500)), clock.pauses);
    }

    @Test
    void aZeroLimitAsksOnce() {
        FakePollClock clock = new FakePollClock();
        int[] asks = {0};
        assertFalse(new Poll(clock).waitUntil(Duration.ZERO, Duration.ofSeconds(1), () -> ++asks[0] > 1));
        assertEquals(1, asks[0]);
        assertTrue(clock.pauses.isEmpty());
    }

    @Test
    void aYesNoWaitEndsAtItsYes() {
        FakePollClock clock = new FakePollClock();
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

    @Test
    void anIntervalByTheTimeWaitedAsksQuicklyFirstThenLessOften() {
        FakePollClock clock = new FakePollClock();
        Poll.Result<String> r = new Poll(clock).waitFor(Duration.ofSeconds(3),
                waited -> waited.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofMillis(400) : Duration.ofSeconds(1),
                () -> Poll.notYet("not yet"));
        assertEquals(new Poll.TimedOut<String>("not yet", Duration.ofSeconds(3)), r);
        assertEquals(List.of(Duration.ofMillis(400), Duration.ofMillis(400), Duration.ofMillis(400), Duration.ofSeconds(1),
                Duration.ofMillis(800)), clock.pauses);
    }

    @Test
    void noLimitWaitsUntilTheAskEndsItAndDoesNotOverflow() {
        FakePollClock clock = new FakePollClock();
        clock.now = Long.MAX_VALUE - 1_000_000_000L;   // a clock near its end: the deadline must not wrap round
        int[] asks = {0};
        Poll.Result<Integer> r = new Poll(clock).waitFor(Poll.NO_LIMIT, Duration.ofSeconds(30),
                () -> ++asks[0] == 1000 ? Poll.got(asks[0]) : Poll.notYet("watching"));
        assertEquals(new Poll.Answered<>(1000), r);
        assertEquals(999, clock.pauses.size());
    }

    @Test
    void anAskEndsAWaitEarlyWithAValueThatSaysWhy() {
        FakePollClock clock = new FakePollClock();
        boolean[] alive = {true};
        int[] asks = {0};
        Poll.Result<Boolean> r = new Poll(clock).waitFor(Duration.ofMinutes(1), Duration.ofSeconds(1), () -> {
            alive[0] = ++asks[0] < 3;
            return !alive[0] ? Poll.got(false) : Poll.notYet("starting");
        });
        assertEquals(new Poll.Answered<>(false), r);
        assertEquals(2, clock.pauses.size());
    }

    @Test
    void anInterruptibleWaitHandsTheAsksInterruptOn() {
        FakePollClock clock = new FakePollClock();
        int[] asks = {0};
        Poll poll = new Poll(clock);
        InterruptedException e = assertThrows(InterruptedException.class, () -> poll.waitInterruptibly(Duration.ofSeconds(10),
                Duration.ofSeconds(1), () -> {
                    if (++asks[0] == 2) {
                        throw new InterruptedException("asked to stop");
                    }
                    return Poll.notYet("not yet");
                }));
        assertEquals("asked to stop", e.getMessage());
        assertEquals(1, clock.pauses.size());
    }

    @Test
    void anInterruptibleWaitTurnsAnInterruptedPauseIntoInterruptedExceptionAndClearsTheFlag() {
        Poll poll = new Poll(new Poll.Clock() {
            @Override
            public long nanoTime() {
                return 0;
            }

            @Override
            public void pause(Duration d) {
                Poll.SYSTEM.pause(d);
            }
        });
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class,
                () -> poll.waitInterruptibly(Duration.ofSeconds(10), Duration.ofSeconds(5), () -> Poll.notYet("not yet")));
        assertFalse(Thread.interrupted());
    }

    @Test
    void anInterruptibleWaitAnswersAsTheOtherDoes() throws InterruptedException {
        FakePollClock clock = new FakePollClock();
        int[] asks = {0};
        assertEquals(new Poll.Answered<>("up"), new Poll(clock).waitInterruptibly(Duration.ofSeconds(10), Duration.ofSeconds(2),
                () -> ++asks[0] == 2 ? Poll.got("up") : Poll.notYet("down")));
        assertEquals(new Poll.TimedOut<String>("down", Duration.ofSeconds(3)), new Poll(new FakePollClock()).waitInterruptibly(
                Duration.ofSeconds(3), Duration.ofSeconds(2), () -> Poll.notYet("down")));
    }

    @Test
    void anInterruptiblePauseThrowsInterruptedException() {
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> Poll.pauseInterruptibly(Duration.ofSeconds(5)));
        assertFalse(Thread.interrupted());
    }
}
