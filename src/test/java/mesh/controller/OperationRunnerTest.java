package mesh.controller;

import mesh.wire.CallFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mesh.model.Conflict;
import mesh.model.FakePollClock;
import mesh.model.Poll;
import mesh.plan.Operation;
import mesh.plan.Operation.Done;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Outcome;
import mesh.plan.Operation.Reason;
import org.junit.jupiter.api.Test;

/**
 * OperationRunnerTest drives the one runner of the controller's operations on fakes: a store that is a map, a plan of
 * three steps, handlers that count their calls. It shows what every operation gets from it: a runner that dies is
 * carried on at the recorded step, a step that fails is tried again by the one policy and then let go, a step that
 * passes its deadline fails as TIMED_OUT, a record under way is refused to a second runner, and a step of one operation
 * runs another operation to its end.
 */
class OperationRunnerTest {

    enum JobStep { FIRST, SECOND, DONE, FAILED }

    /** A fake operation's record: its step, why the last try did not go through, why it failed (and its reason). */
    record Job(String key, JobStep step, String problem, String error, Reason reason, boolean gaveUp) {
        Job at(JobStep next) {
            return new Job(key, next, null, error, reason, gaveUp);
        }
    }

    /**
     * The fake plan: FIRST then SECOND then DONE. A failure of FIRST fails the job (with its reason); one of SECOND keeps
     * it at SECOND with a problem, to be tried again, as a take's steps from the switch on.
     */
    static final class JobPlan implements Operation.Plan<Job> {
        Duration deadline = Duration.ofMinutes(1);

        @Override
        public JobStep step(Job j) {
            return j.step();
        }

        @Override
        public boolean ended(Job j) {
            return j.step() == JobStep.DONE || j.step() == JobStep.FAILED;
        }

        @Override
        public Job after(Job j, Outcome o) {
            if (o instanceof Failed f) {
                return j.step() == JobStep.FIRST ? new Job(j.key(), JobStep.FAILED, null, f.words(), f.reason(), false)
                        : new Job(j.key(), j.step(), f.words(), j.error(), f.reason(), false);
            }
            return j.at(j.step() == JobStep.FIRST ? JobStep.SECOND : JobStep.DONE);
        }

        @Override
        public String problem(Job j) {
            return j.problem();
        }

        @Override
        public Duration deadline(Job j) {
            return deadline;
        }

        @Override
        public String describe(Job j) {
            return j.step().name();
        }

        @Override
        public Job gaveUp(Job j) {
            return new Job(j.key(), j.step(), j.problem(), j.error(), j.reason(), true);
        }
    }

    /** The fake kind: its store is a map, which outlives a runner as the controller's store does. */
    static final class Jobs implements OperationRunner.Kind<String, Job, String> {
        final Map<String, Job> store;
        final JobPlan plan = new JobPlan();
        final Map<JobStep, AtomicInteger> calls = new ConcurrentHashMap<>();
        final Map<Enum<?>, OperationRunner.Step<Job, String>> steps = new HashMap<>();
        final List<String> locked = new ArrayList<>();
        final List<Thread> loadedOn = new CopyOnWriteArrayList<>();
        RuntimeException dieAfterSave;

        Jobs(Map<String, Job> store) {
            this.store = store;
            for (JobStep s : List.of(JobStep.FIRST, JobStep.SECOND)) {
                calls.put(s, new AtomicInteger());
                handle(s, (j, progress) -> new Done());
            }
        }

        void handle(JobStep s, OperationRunner.Step<Job, String> h) {
            steps.put(s, (j, progress) -> {
                calls.get(s).incrementAndGet();
                return h.carryOut(j, progress);
            });
        }

        int calls(JobStep s) {
            return calls.get(s).get();
        }

        @Override
        public String name() {
            return "job";
        }

        @Override
        public Operation.Plan<Job> plan() {
            return plan;
        }

        @Override
        public Optional<Job> load(String key) {
            loadedOn.add(Thread.currentThread());
            return Optional.ofNullable(store.get(key));
        }

        @Override
        public void save(Job before, Job next) {
            store.put(next.key(), next);
            if (dieAfterSave != null) {
                throw dieAfterSave;
            }
        }

        @Override
        public Map<Enum<?>, OperationRunner.Step<Job, String>> steps() {
            return steps;
        }

        @Override
        public AutoCloseable tryLock(String key) {
            synchronized (locked) {
                if (locked.contains(key)) {
                    return null;   // another controller holds it
                }
                locked.add(key);
            }
            return () -> {
                synchronized (locked) {
                    locked.remove(key);
                }
            };
        }
    }

    static Map<String, Job> storeWith(String key) {
        Map<String, Job> store = new ConcurrentHashMap<>();
        store.put(key, new Job(key, JobStep.FIRST, null, null, null, false));
        return store;
    }

    static OperationRunner<String, Job, String> runner(Jobs kind, FakePollClock clock) {
        return new OperationRunner<>(kind, new Operation.Retry(3, Duration.ofSeconds(3)), clock);
    }

    @Test
    void aRunnerThatDiesIsCarriedOnAtTheRecordedStepByTheNext() {
        Map<String, Job> store = storeWith("a");
        Jobs first = new Jobs(store);
        first.dieAfterSave = new IllegalStateException("the controller was killed");
        assertThrows(IllegalStateException.class, () -> runner(first, new FakePollClock()).runHere("a"));
        assertEquals(JobStep.SECOND, store.get("a").step(), "what the first step found is recorded before the next");
        assertEquals(1, first.calls(JobStep.FIRST));
        assertEquals(0, first.calls(JobStep.SECOND));

        Jobs next = new Jobs(store);   // the next controller: the same store, a new runner
        Job done = runner(next, new FakePollClock()).runHere("a");
        assertEquals(JobStep.DONE, done.step());
        assertEquals(0, next.calls(JobStep.FIRST), "the step already recorded is not carried out again");
        assertEquals(1, next.calls(JobStep.SECOND));
    }

    @Test
    void resumeStartsARunnerForEachRecordLeftAndTheyEnd() throws InterruptedException {
        Map<String, Job> store = storeWith("a");
        store.put("b", new Job("b", JobStep.SECOND, null, null, null, false));
        Jobs kind = new Jobs(store);
        OperationRunner<String, Job, String> runner = runner(kind, new FakePollClock());
        runner.resume(List.of("a", "b"));
        for (int i = 0; i < 200 && (runner.active("a") || runner.active("b") || store.values().stream()
                .anyMatch(j -> j.step() != JobStep.DONE)); i++) {
            Thread.sleep(10);
        }
        assertEquals(JobStep.DONE, store.get("a").step());
        assertEquals(JobStep.DONE, store.get("b").step());
        assertEquals(2, kind.calls(JobStep.SECOND));
        assertEquals(1, kind.calls(JobStep.FIRST));
    }

    /**
     * A runner's loop reads and writes the store with no deadline of its own, so it runs on a platform thread: in the
     * native executable a virtual thread's blocking socket read can miss its wake-up for ever (oracle/graal#13787).
     */
    @Test
    void aRunnersLoopReadsTheStoreOnAPlatformThreadOfItsOwn() throws InterruptedException {
        Map<String, Job> store = storeWith("a");
        Jobs kind = new Jobs(store);
        OperationRunner<String, Job, String> runner = runner(kind, new FakePollClock());
        runner.resume(List.of("a"));
        for (int i = 0; i < 200 && (runner.active("a") || store.get("a").step() != JobStep.DONE); i++) {
            Thread.sleep(10);
        }
        assertEquals(JobStep.DONE, store.get("a").step());
        assertFalse(kind.loadedOn.isEmpty());
        for (Thread t : kind.loadedOn) {
            assertFalse(t.isVirtual(), t.toString());
            assertTrue(t.isDaemon(), "a runner never keeps the controller from ending: " + t);
            assertEquals("job-a", t.getName());
        }
    }

    /**
     * A step's handler reads the store too (a backup's copy its module, each step its node) with no deadline of its own
     * but the step's, which is a day for a copy: it runs on a platform thread as well, never a virtual one
     * (oracle/graal#13787: a backup carried on after its controller was killed stayed "running" in the native executable).
     */
    @Test
    void aStepsHandlerRunsOnAPlatformDaemonThread() {
        Map<String, Job> store = storeWith("a");
        Jobs kind = new Jobs(store);
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        for (JobStep s : List.of(JobStep.FIRST, JobStep.SECOND)) {
            kind.handle(s, (j, progress) -> {
                ranOn.add(Thread.currentThread());
                return new Done();
            });
        }
        assertEquals(JobStep.DONE, runner(kind, new FakePollClock()).runHere("a").step());
        assertEquals(2, ranOn.size(), ranOn.toString());
        for (Thread t : ranOn) {
            assertFalse(t.isVirtual(), t.toString());
            assertTrue(t.isDaemon(), "a step never keeps the controller from ending: " + t);
        }
        assertEquals(List.of("job-a-FIRST", "job-a-SECOND"), ranOn.stream().map(Thread::getName).toList());
    }

    @Test
    void aStepThatFailsIsTriedAgainByThePolicyUntilItGoesThrough() {
        Map<String, Job> store = storeWith("a");
        Jobs kind = new Jobs(store);
        AtomicInteger tries = new AtomicInteger();
        kind.handle(JobStep.SECOND, (j, p) -> tries.incrementAndGet() < 3
                ? new Failed(Reason.UNREACHABLE, "node n2's agent did not answer") : new Done());
        FakePollClock clock = new FakePollClock();
        Job done = runner(kind, clock).runHere("a");
        assertEquals(JobStep.DONE, done.step());
        assertEquals(3, kind.calls(JobStep.SECOND));
        assertEquals(List.of(Duration.ofSeconds(3), Duration.ofSeconds(3)), clock.pauses, "a pause between tries, none after");
        assertNull(done.problem(), "the problem is cleared once the step goes through");
    }

    @Test
    void aStepThatFailsEveryTryIsLetGoAndThePlanSaysWhatBecomesOfIt() {
        Map<String, Job> store = storeWith("a");
        Jobs kind = new Jobs(store);
        kind.handle(JobStep.SECOND, (j, p) -> {
            throw CallFailure.unreachable("node n2's agent did not answer");
        });
        FakePollClock clock = new FakePollClock();
        Job waiting = runner(kind, clock).runHere("a");
        assertEquals(3, kind.calls(JobStep.SECOND), "the policy's tries, no more");
        assertEquals(JobStep.SECOND, waiting.step());
        assertTrue(waiting.gaveUp(), "the plan's gaveUp decides the record after the last try");
        assertEquals(waiting, store.get("a"), "and it is recorded");
        assertEquals(Reason.UNREACHABLE, waiting.reason(), "an agent that does not answer is UNREACHABLE");
        assertEquals("node n2's agent did not answer", waiting.problem());
        assertEquals(2, clock.pauses.size());
    }

    @Test
    void theOneRetryPolicyIsTenTriesThreeSecondsApart() {
        assertTrue(Operation.Retry.STANDARD.again(9));
        assertFalse(Operation.Retry.STANDARD.again(10));
        assertEquals(Duration.ofSeconds(3), Operation.Retry.STANDARD.between());
    }

    @Test
    void aStepThatPassesItsDeadlineFailsAsTimedOutAndIsInterrupted() {
        Map<String, Job> store = storeWith("a");
        Jobs kind = new Jobs(store);
        kind.plan.deadline = Duration.ofMillis(200);
        CountDownLatch interrupted = new CountDownLatch(1);
        kind.handle(JobStep.FIRST, (j, p) -> {
            try {
                Thread.sleep(Duration.ofMinutes(5));
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return new Done();
        });
        long began = System.nanoTime();
        Job failed = runner(kind, new FakePollClock()).runHere("a");
        assertTrue(System.nanoTime() - began < Duration.ofSeconds(5).toNanos(), "the runner did not wait past the deadline");
        assertEquals(JobStep.FAILED, failed.step());
        assertEquals(Reason.TIMED_OUT, failed.reason());
        assertEquals("it did not end within its deadline of 200 ms", failed.error());
        assertEquals(0, interrupted.getCount(), "the step's thread was interrupted");
    }

    @Test
    void aStepThatThrowsFailsWithTheReasonOfWhatItThrew() {
        Map<String, Job> store = storeWith("a");
        Jobs kind = new Jobs(store);
        kind.handle(JobStep.FIRST, (j, p) -> {
            throw new Conflict("module web was moved while it was taken");
        });
        Job failed = runner(kind, new FakePollClock()).runHere("a");
        assertEquals(JobStep.FAILED, failed.step());
        assertEquals(Reason.CONFLICT, failed.reason());
        assertEquals("module web was moved while it was taken", failed.error());
    }

    @Test
    void aRecordUnderWayIsRefusedToASecondRunnerAndAnotherControllersLockKeepsItOff() throws Exception {
        Map<String, Job> store = storeWith("a");
        Jobs kind = new Jobs(store);
        CountDownLatch inStep = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        kind.handle(JobStep.FIRST, (j, p) -> {
            p.accept("copying 10 MB");
            inStep.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Done();
        });
        OperationRunner<String, Job, String> runner = runner(kind, new FakePollClock());
        assertTrue(runner.start("a"));
        assertTrue(inStep.await(10, TimeUnit.SECONDS));
        assertTrue(runner.active("a"));
        assertEquals("copying 10 MB", runner.progress("a"), "the step's progress is the runner's while it runs");
        Conflict refused = assertThrows(Conflict.class, () -> runner.runHere("a"));
        assertEquals("job a is already under way", refused.getMessage());

        OperationRunner<String, Job, String> otherController = runner(kind, new FakePollClock());
        assertFalse(otherController.start("a"), "the lock is held: another controller does not start it");
        release.countDown();
        for (int i = 0; i < 500 && runner.active("a"); i++) {
            Thread.sleep(10);
        }
        assertFalse(runner.active("a"));
        assertNull(runner.progress("a"));
        assertEquals(JobStep.DONE, store.get("a").step());
        assertEquals(1, kind.calls(JobStep.FIRST), "one runner carried the step out");
        assertTrue(kind.locked.isEmpty(), "the lock is let go when the runner ends");
    }

    @Test
    void aStepOfOneOperationRunsAnotherToItsEnd() {
        Map<String, Job> takes = storeWith("web");
        takes.put("db", new Job("db", JobStep.FIRST, null, null, null, false));
        Jobs takeKind = new Jobs(takes);
        OperationRunner<String, Job, String> takeRunner = runner(takeKind, new FakePollClock());

        Map<String, Job> drains = storeWith("n2");
        Jobs drainKind = new Jobs(drains);
        List<String> ran = new ArrayList<>();
        drainKind.handle(JobStep.FIRST, (d, p) -> {
            for (String module : List.of("web", "db")) {
                Job t = takeRunner.runHere(module);
                ran.add(module + " " + t.step());
                if (t.step() != JobStep.DONE) {
                    return new Failed(Reason.FAILED, "the take of " + module + " ended " + t.step());
                }
            }
            return new Done();
        });
        Job drained = runner(drainKind, new FakePollClock()).runHere("n2");
        assertEquals(JobStep.DONE, drained.step());
        assertEquals(List.of("web DONE", "db DONE"), ran);
        assertEquals(2, takeKind.calls(JobStep.SECOND));
    }

    @Test
    void aChildThatFailsFailsTheStepOfItsParentWithItsWords() {
        Map<String, Job> takes = storeWith("web");
        Jobs takeKind = new Jobs(takes);
        takeKind.handle(JobStep.FIRST, (j, p) -> new Failed(Reason.REFUSED, "preflight: node n3 lacks image web:2"));
        OperationRunner<String, Job, String> takeRunner = runner(takeKind, new FakePollClock());
        Jobs drainKind = new Jobs(storeWith("n2"));
        drainKind.handle(JobStep.FIRST, (d, p) -> {
            Job t = takeRunner.runHere("web");
            return t.step() == JobStep.DONE ? new Done() : new Failed(Reason.FAILED, "take of web: " + t.error());
        });
        Job drained = runner(drainKind, new FakePollClock()).runHere("n2");
        assertEquals(JobStep.FAILED, drained.step());
        assertEquals("take of web: preflight: node n3 lacks image web:2", drained.error());
        assertEquals(Reason.REFUSED, takes.get("web").reason());
    }
}
