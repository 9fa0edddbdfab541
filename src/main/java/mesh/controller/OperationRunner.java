package mesh.controller;

import mesh.wire.CallFailure;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import mesh.model.Conflict;
import mesh.model.NotFound;
import mesh.model.Poll;
import mesh.plan.Operation;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Outcome;
import mesh.plan.Operation.Reason;
import mesh.plan.PlanFailure;
import org.jboss.logging.Logger;

/**
 * OperationRunner carries out the controller's long operations (a take, a backup, a restore), one runner per kind of
 * operation, and is the only loop they have: the background start, the lock ("already under way"), the run loop that
 * carries out the recorded step and records what it found before the next, the one retry policy
 * ({@link Operation.Retry}), the progress of the step under way, a deadline for every step (a rollback's too), and the
 * crash-resume: the record is read from the store before each step, so a runner started on a record a dead runner
 * left ({@link #resume}) carries it on at the step recorded. Every step is idempotent; nothing here decides.
 *
 * <pre>
 *   start(key) ─► lock ─► ┌► load(key) ─► ended? ─► stop
 *                         │      ▼
 *                         │  step handler (its deadline) ─► Outcome ─► plan.after(record, outcome) ─► save
 *                         └──────────── same step with a problem: again after Retry.between, up to Retry.tries,
 *                                       then plan.gaveUp(record) and the runner lets go
 * </pre>
 *
 * <p>A new operation is its record, its step enum, its {@link Operation.Plan} (the pure {@code after}) and a
 * {@link Kind}: how its record is loaded and saved, and one {@link Step} handler per step; no loop of its own:
 *
 * <pre>{@code
 * final class DrainKind implements OperationRunner.Kind<String, Drain, Void> {
 *     public Map<Enum<?>, Step<Drain, Void>> steps() {
 *         return Map.of(DrainStep.TAKE_NEXT, (d, progress) -> {
 *             // an operation runs another on that one's runner, in its own step, and waits for it to end
 *             Take t = takes.runHere(d.nextModule());
 *             return t.step() == TakeStep.DONE ? new Operation.Done() : new Operation.Failed(Reason.FAILED, t.error());
 *         }, DrainStep.CORDON, (d, progress) -> ...);
 *     }
 *     ... load, save, plan, name
 * }
 * new OperationRunner<>(new DrainKind(...)).start("n2");
 * }</pre>
 *
 * <p>{@link #runHere} is that: a step of one operation (a drain) runs another (a take) to its end on its own runner,
 * with that one's lock, retries and deadlines, in the step's thread; the outer step's deadline bounds it.
 *
 * @param <K> the key an operation's record is found by (a take's module, a backup's number)
 * @param <R> the operation's record
 * @param <P> the progress its steps report (a copy's line)
 */
final class OperationRunner<K, R, P> {

    private static final Logger LOG = Logger.getLogger("mesh.controller");
    /** How long a step whose deadline passed is given to end once it was interrupted, before the runner goes on. */
    static final Duration AFTER_DEADLINE = Duration.ofSeconds(5);

    /** Step is the handler of one step of one kind of operation: it acts, and says what it found. */
    @FunctionalInterface
    interface Step<R, P> {
        Outcome carryOut(R record, Consumer<P> progress);
    }

    /** Kind is what one kind of operation gives the runner: the rest is the runner's. */
    interface Kind<K, R, P> {

        /** Its name in the log and the runner's thread: {@code take}. */
        String name();

        Operation.Plan<R> plan();

        /** The record as the store holds it now; empty when there is none. */
        Optional<R> load(K key);

        /** Records {@code next}, what {@code before}'s step found (and, when it ended, the audit line). */
        void save(R before, R next);

        /** One handler for each step of the operation that acts, by the plan's step. */
        Map<Enum<?>, Step<R, P>> steps();

        /** The lock no other controller holds while this one carries {@code key} out, or null when one does. */
        default AutoCloseable tryLock(K key) {
            return () -> {
            };
        }

        /** Called before each step (a test's hold); nothing by default. */
        default void before(R record) {
        }

        /** The longest {@code record}'s current step may take: the plan's, unless a test's hook gives a shorter one. */
        default Duration deadline(R record) {
            return plan().deadline(record);
        }
    }

    private final Kind<K, R, P> kind;
    private final Operation.Retry retry;
    private final Poll.Clock clock;
    private final Set<K> active = ConcurrentHashMap.newKeySet();
    private final Map<K, P> progress = new ConcurrentHashMap<>();

    OperationRunner(Kind<K, R, P> kind) {
        this(kind, Operation.Retry.STANDARD, Poll.SYSTEM);
    }

    /** With another retry policy and clock (tests: no real pause between tries). */
    OperationRunner(Kind<K, R, P> kind, Operation.Retry retry, Poll.Clock clock) {
        this.kind = kind;
        this.retry = retry;
        this.clock = clock;
    }

    /** Whether a runner of this controller carries {@code key} out now. */
    boolean active(K key) {
        return active.contains(key);
    }

    /** The progress the step under way reported last, while one does. */
    P progress(K key) {
        return progress.get(key);
    }

    /**
     * Starts a runner for {@code key} on a thread of its own unless another holds its lock; whether one runs now
     * (started, or already running in this controller).
     */
    boolean start(K key) {
        AutoCloseable lock = kind.tryLock(key);
        if (lock == null) {
            return false;
        }
        if (!active.add(key)) {
            close(lock);
            return true;
        }
        // a platform thread: its loop reads and writes the store with no deadline, and a virtual thread's socket read can
        // miss its wake-up in the native executable (oracle/graal#13787; BackupWatch says more)
        Thread.ofPlatform().name(kind.name() + "-" + key).daemon(true).start(() -> {
            try (lock) {
                run(key);
            } catch (Exception e) {
                LOG.errorf("%s %s: %s; it is carried on when asked again or at the controller's next start", kind.name(), key,
                        e.getMessage());
            } finally {
                active.remove(key);
                progress.remove(key);
            }
        });
        return true;
    }

    /** Starts a runner for each key a dead runner left (the controller's start); those it started, for the log. */
    void resume(Iterable<K> keys) {
        for (K key : keys) {
            if (!active(key) && start(key)) {
                LOG.infof("carrying on %s %s", kind.name(), key);
            }
        }
    }

    /**
     * Carries {@code key} out in the calling thread until it ends or the runner lets go, and returns the record as it
     * stands then: how one operation's step runs another. Refused ({@link Conflict}) while another runner has it.
     */
    R runHere(K key) {
        AutoCloseable lock = kind.tryLock(key);
        if (lock == null || !active.add(key)) {
            close(lock);
            throw new Conflict(kind.name() + " " + key + " is already under way");
        }
        try (lock) {
            return run(key);
        } catch (Exception e) {
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        } finally {
            active.remove(key);
            progress.remove(key);
        }
    }

    /** The loop: carry out the recorded step, record what it found, until the record ends or the retries are spent. */
    private R run(K key) {
        Operation.Plan<R> plan = kind.plan();
        int failed = 0;
        while (true) {
            R r = kind.load(key).orElse(null);
            if (r == null || plan.ended(r)) {
                return r;
            }
            kind.before(r);
            LOG.infof("%s %s: %s", kind.name(), key, plan.describe(r));
            Outcome found = carryOut(key, r);
            progress.remove(key);
            R next = plan.after(r, found);
            kind.save(r, next);
            if (plan.step(next) != plan.step(r) || plan.problem(next) == null) {
                failed = 0;
                continue;
            }
            LOG.warnf("%s %s: %s", kind.name(), key, plan.problem(next));
            if (!retry.again(++failed)) {
                R ended = plan.gaveUp(next);
                if (ended != next) {
                    kind.save(next, ended);
                    LOG.warnf("%s %s: %s", kind.name(), key, plan.ended(ended) ? "ended: " + plan.problem(ended) : plan.describe(ended));
                }
                return ended;
            }
            clock.pause(retry.between());
        }
    }

    /** Carries out {@code r}'s step within its deadline; any failure, the deadline's too, is a {@link Failed} with its reason. */
    private Outcome carryOut(K key, R r) {
        Enum<?> step = kind.plan().step(r);
        Step<R, P> handler = kind.steps().get(step);
        if (handler == null) {
            return new Operation.Done();   // a step with nothing to do (an ended one)
        }
        Duration deadline = kind.deadline(r);
        FutureTask<Outcome> task = new FutureTask<>(() -> {
            try {
                return handler.carryOut(r, line -> progress.put(key, line));
            } catch (RuntimeException e) {
                return failure(e);
            }
        });
        // a platform thread as the loop's: a handler reads the store too (a backup's copy its module, every step its node),
        // and a virtual thread's JDBC socket read can miss its wake-up in the native executable and wait for ever
        // (oracle/graal#13787), a step then held to its deadline (a copy's is a day) with the operation "running"
        Thread worker = Thread.ofPlatform().name(kind.name() + "-" + key + "-" + step).daemon(true).start(task);
        try {
            return task.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            worker.interrupt();
            try {
                worker.join(AFTER_DEADLINE);
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            }
            return new Failed(Reason.TIMED_OUT, "it did not end within its deadline of " + words(deadline));
        } catch (ExecutionException e) {
            return e.getCause() instanceof RuntimeException r2 ? failure(r2) : new Failed(Reason.INTERNAL, String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
            worker.interrupt();
            Thread.currentThread().interrupt();
            throw new Conflict(kind.name() + " " + key + ": its runner was interrupted");
        }
    }

    /** A step's exception as a failure with its reason: an agent that did not answer, one that refused, the mesh that changed. */
    static Failed failure(RuntimeException e) {
        Reason reason = switch (e) {
            case CallFailure u -> u.kind() == CallFailure.Kind.UNREACHABLE ? Reason.UNREACHABLE : Reason.REFUSED;
            case Conflict c -> Reason.CONFLICT;
            case NotFound n -> Reason.CONFLICT;
            case PlanFailure p -> Reason.REFUSED;
            case java.util.concurrent.CancellationException c -> Reason.TIMED_OUT;
            default -> Reason.INTERNAL;
        };
        return new Failed(reason, e.getMessage());
    }

    static String words(Duration d) {
        return d.toHours() >= 1 && d.toMinutesPart() == 0 ? d.toHours() + " h"
                : d.toMinutes() >= 1 && d.toSecondsPart() == 0 ? d.toMinutes() + " min"
                : d.toSeconds() >= 1 && d.toMillisPart() == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static void close(AutoCloseable lock) {
        if (lock == null) {
            return;
        }
        try {
            lock.close();
        } catch (Exception e) {
            LOG.debugf("closing a lock: %s", e.getMessage());
        }
    }
}
