package mesh.model;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
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
 *
 * <p>An ask may end a wait early with a value that says why (a process that died: {@code Poll.got(false)}); a wait
 * whose caller hands an interrupt on asks through {@link #interruptibly}; a wait that asks quickly at first and
 * then less often gives its interval as a function of the time waited; a watch that ends only when its ask says so
 * (a silence watchdog, an operation followed to its end) has {@link #NO_LIMIT}.
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

    /**
     * An ask that may be interrupted, for a wait whose caller hands {@link InterruptedException} on, and may fail with
     * {@code X} (an {@code IOException} of a call), which ends the wait and goes to the caller as it is.
     */
    @FunctionalInterface
    public interface Asking<T, X extends Exception> {
        Ask<T> ask() throws InterruptedException, X;
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

    /** No deadline: only for a watch whose ask ends it (a watchdog, a follow with no timeout), never for a wait on a part. */
    public static final Duration NO_LIMIT = ChronoUnit.FOREVER.getDuration();

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

    /** As {@link #until(Duration, Duration, Supplier)}, the pause after each ask given by the time waited so far. */
    public static <T> Result<T> until(Duration limit, Function<Duration, Duration> every, Supplier<Ask<T>> ask) {
        return REAL.waitFor(limit, every, ask);
    }

    /**
     * As {@link #until(Duration, Duration, Supplier)} for an ask that may be interrupted: an interrupt, in the ask or
     * in a pause, ends the wait with {@link InterruptedException} (the thread's flag cleared, as {@code Thread.sleep} does).
     */
    public static <T, X extends Exception> Result<T> interruptibly(Duration limit, Duration every, Asking<T, X> ask)
            throws InterruptedException, X {
        return REAL.waitInterruptibly(limit, every, ask);
    }

    public <T> Result<T> waitFor(Duration limit, Duration every, Supplier<Ask<T>> ask) {
        return waitFor(limit, waited -> every, ask);
    }

    public <T> Result<T> waitFor(Duration limit, Function<Duration, Duration> every, Supplier<Ask<T>> ask) {
        try {
            return this.<T, RuntimeException>loop(limit, every, ask::get);
        } catch (InterruptedException e) {
            // a Supplier cannot throw it; only a sneaky one could
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting");
        }
    }

    public <T, X extends Exception> Result<T> waitInterruptibly(Duration limit, Duration every, Asking<T, X> ask)
            throws InterruptedException, X {
        try {
            return loop(limit, waited -> every, ask);
        } catch (CancellationException e) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting");
            }
            throw e;
        }
    }

    private <T, X extends Exception> Result<T> loop(Duration limit, Function<Duration, Duration> every, Asking<T, X> ask)
            throws InterruptedException, X {
        long start = clock.nanoTime();
        long limitNanos = nanos(limit);
        while (true) {
            Ask<T> a = ask.ask();
            if (a instanceof Got<T> g) {
                return new Answered<>(g.value());
            }
            long waited = clock.nanoTime() - start;
            long left = limitNanos - waited;
            if (left <= 0) {
                return new TimedOut<>(((NotYet<T>) a).why(), Duration.ofNanos(waited));
            }
            clock.pause(Duration.ofNanos(Math.min(nanos(every.apply(Duration.ofNanos(waited))), left)));
        }
    }

    /** {@code d} in nanoseconds, at most {@code Long.MAX_VALUE} (some 292 years: {@link #NO_LIMIT}). */
    private static long nanos(Duration d) {
        try {
            return Math.max(0, d.toNanos());
        } catch (ArithmeticException tooLong) {
            return d.isNegative() ? 0 : Long.MAX_VALUE;
        }
    }

    public boolean waitUntil(Duration limit, Duration every, BooleanSupplier done) {
        return waitFor(limit, every, () -> done.getAsBoolean() ? got(Boolean.TRUE) : notYet("")) instanceof Answered;
    }

    /**
     * Sleeps {@code d} for a caller that hands an interrupt on ({@link InterruptedException}): the one pause of a loop
     * that is not a wait with a deadline (a file followed as it grows, a watch over a stream).
     */
    public static void pauseInterruptibly(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis(), (int) (d.toNanos() % 1_000_000));
    }

    /** Sleeps {@code d}; an interrupt ends it with {@link CancellationException}, the thread's flag set again. */
    public static void pause(Duration d) {
        try {
            pauseInterruptibly(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting");
        }
    }
}
