package mesh.host;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import mesh.host.process.Backoff;

/**
 * HostLoop is when the agent's passes run, never what they do (kubelet's pod workers take their sync
 * function from outside in the same way): one thread, a pass every interval, a pass now when a push
 * wakes it, one look again soon while a component starts (at most one queued), and work of the agent's
 * own (a take's stop, a bundle check) run between passes, never beside one. While the engine fails,
 * passes back off ({@link #engineBackoff}).
 *
 * <pre>
 *  start ─► pass(false) every interval ─────┐
 *  wake (a push) ─► pass(false) now ────────┤   one thread: a pass never runs beside another,
 *  lookAgainSoon ─► pass(false) in 1 s ─────┤   nor beside onLoop work
 *  passNow (refresh) ─► pass(true) ─────────┘   (forced: the engine is asked even while backing off)
 * </pre>
 */
final class HostLoop {

    /** How soon a starting component is looked at again, rather than a whole interval later. */
    static final Duration STARTING_LOOK = Duration.ofSeconds(1);

    private final Duration interval;
    private final Consumer<Boolean> pass;
    private final ScheduledExecutorService thread;
    /** A look again is scheduled: at most one at a time. */
    private final AtomicBoolean lookAgain = new AtomicBoolean();
    /** While the engine fails: passes skip it until then. Written and read on the loop's thread. */
    private volatile Instant nextEngineTry;

    /** A loop of passes every {@code interval}; {@code pass} takes whether it is forced (a refresh). */
    HostLoop(Duration interval, Consumer<Boolean> pass) {
        this.interval = interval;
        this.pass = pass;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "mesh-host-loop"));
    }

    /** Starts the passes: the first one now. */
    void start() {
        thread.scheduleWithFixedDelay(() -> pass.accept(false), 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A pass now (a push was accepted), after whatever runs on the loop. */
    void wake() {
        thread.execute(() -> pass.accept(false));
    }

    /** A pass after {@code delay} (the start hold runs out, a restart's backoff is over). */
    void wakeAfter(Duration delay) {
        try {
            thread.schedule(() -> pass.accept(false), Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            // the loop is stopping: no pass is due any more
        }
    }

    /**
     * While a component is starting (up for an instant, or its health check not passing yet), the next look
     * comes after {@link #STARTING_LOOK} rather than a whole interval, so {@code push --wait} learns soon whether
     * it runs, and a process that exits at once is seen crash-looping, not running.
     */
    void lookAgainSoon() {
        if (interval.compareTo(STARTING_LOOK) > 0 && lookAgain.compareAndSet(false, true)) {
            thread.schedule(() -> {
                lookAgain.set(false);
                pass.accept(false);
            }, STARTING_LOOK.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Whether a pass may ask the engine now: a forced one always, others once the backoff has passed. */
    boolean engineDue(Instant now, boolean forced) {
        return forced || nextEngineTry == null || !now.isBefore(nextEngineTry);
    }

    /** The engine answered: no backoff. */
    void engineAnswered() {
        nextEngineTry = null;
    }

    /** The engine failed in {@code passes} passes in a row: the next pass that asks it waits. */
    void engineFailed(Instant now, int passes) {
        nextEngineTry = now.plus(engineBackoff().delay(passes));
    }

    /**
     * The engine's backoff: one interval after the first failure, doubling, at most two minutes (or the
     * interval if longer). Processes are still reconciled on every pass: they do not need the engine.
     */
    Backoff engineBackoff() {
        Duration cap = interval.compareTo(Duration.ofMinutes(2)) > 0 ? interval : Duration.ofMinutes(2);
        return new Backoff(interval, cap, Duration.ZERO);
    }

    /**
     * Runs {@code work} on the loop, between passes, and waits for it; a failure is a HostFailure saying
     * "interrupted while {@code doing}" or "could not {@code todo}: why".
     */
    <T> T onLoop(String doing, String todo, Callable<T> work) {
        try {
            return thread.submit(work).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostFailure("interrupted while " + doing, e);
        } catch (ExecutionException e) {
            throw new HostFailure("could not " + todo + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** A forced pass now, waited for at most {@code wait}; false when it did not end in time (the last pass's look stands). */
    boolean passNow(Duration wait) {
        try {
            thread.submit(() -> pass.accept(true)).get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException | RejectedExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void stop() {
        thread.shutdownNow();
    }

    /**
     * applyPool is the apply parallelism's pool. Its threads end after 30 s idle: between pushes an
     * agent holds no apply threads (nor their stacks and C-heap arenas), see docs/benchmarks.md.
     */
    static ExecutorService applyPool(int parallelism) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(parallelism, parallelism, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> new Thread(r, "mesh-apply"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
