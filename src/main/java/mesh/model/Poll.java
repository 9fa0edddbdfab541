package mesh.model;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Poll is the one way the mesh waits on another part (an agent, an engine, a process, a file): ask, and ask
 * again every so often, until the answer is there or the time given is up. Every wait in main code goes through
 * it, so every wait has a deadline and says, when it gives up, what it saw last.
 *
 * <p>A wait with a reason: {@code Poll.until(Duration.ofSeconds(60), Duration.ofSeconds(1), () -> ready() ?
 * Poll.got(x) : Poll.notYet("still starting"))} gives {@link Answered} or {@link TimedOut} with the last reason.
 * A yes/no wait: {@link #until(Duration, Duration, BooleanSupplier)}. The first ask is made at once; the last one
 * no later than the deadline. Tests of pure logic hand a {@link Clock} of their own to {@link #Poll(Clock)}.
 */
public final class Poll {

    /** Time as a wait sees it: now, and a pause. The real one is {@link #SYSTEM}. */
    public interface Clock {
        long nanoTime();

        /** Pauses {@code d}; an interrupt ends the wait with {@link CancellationException}, the flag set again. */
        void pause(Duration d);
    }

    /** What one ask found: the value waited for, or why not yet. */
    public sealed interface Ask<T> permits Got, NotYet {
    }

    public record Got<T>(T value) implements Ask<T> {
    }

    public record NotYet<T>(String why) implements Ask<T> {
    }

    /** How a wait ended: answered, or timed out with what its last ask saw. */
    public sealed interface Result<T> permits Answered, TimedOut {
    }

    public record Answered<T>(T value) implements Result<T> {
    }

    /** The wait gave up after {@code waited}; {@code lastWhy} is its last ask's reason. */
    public record TimedOut<T>(String lastWhy, Duration waited) implements Result<T> {
    }

    public static final Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void pause(Duration d) {
            Poll.pause(d);
        }
    };

    private static final Poll REAL = new Poll(SYSTEM);

    private final Clock clock;

    public Poll(Clock clock) {
        this.clock = clock;
    }

    public static <T> Got<T> got(T value) {
        return new Got<>(value);
    }

    public static <T> NotYet<T> notYet(String why) {
        return new NotYet<>(why);
    }

    /** Asks every {@code every} until an ask gives a value or {@code limit} has passed, on the system clock. */
    public static <T> Result<T> until(Duration limit, Duration every, Supplier<Ask<T>> ask) {
        return REAL.waitFor(limit, every, ask);
    }

    /** Whether {@code done} said yes within {@code limit}, asked every {@code every}, on the system clock. */
    public static boolean until(Duration limit, Duration every, BooleanSupplier done) {
        return REAL.waitUntil(limit, every, done);
    }

    public <T> Result<T> waitFor(Duration limit, Duration every, Supplier<Ask<T>> ask) {
        long start = clock.nanoTime();
        long deadline = start + limit.toNanos();
        while (true) {
            Ask<T> a = ask.get();
            if (a instanceof Got<T> g) {
                return new Answered<>(g.value());
            }
            long now = clock.nanoTime();
            long left = deadline - now;
            if (left <= 0) {
                return new TimedOut<>(((NotYet<T>) a).why(), Duration.ofNanos(now - start));
            }
            clock.pause(Duration.ofNanos(Math.min(every.toNanos(), left)));
        }
    }

    public boolean waitUntil(Duration limit, Duration every, BooleanSupplier done) {
        return waitFor(limit, every, () -> done.getAsBoolean() ? got(Boolean.TRUE) : notYet("")) instanceof Answered;
    }

    /** Sleeps {@code d}; an interrupt ends it with {@link CancellationException}, the thread's flag set again. */
    public static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis(), (int) (d.toNanos() % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting");
        }
    }
}
