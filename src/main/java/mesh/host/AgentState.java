package mesh.host;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import mesh.host.process.ProcessStatus;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.Vitals;
import mesh.plan.StatusWait;
import mesh.wire.EdgeStatus;
import mesh.wire.HostStatus;

/**
 * AgentState is what the agent knows between passes: the declaration it keeps the node at, how far it
 * got, and what it saw at its last look, so a status answer costs no engine call. The loop's thread
 * writes it, any request thread reads it: every field is one volatile value, replaced whole.
 */
final class AgentState {

    private final String node;
    private final Clock clock;
    final FailureLog failures;

    volatile Declaration desired;
    volatile long appliedGeneration;
    volatile boolean converged;
    /** A pass is running: it may be changing containers toward an older generation right now. */
    volatile boolean passing;
    volatile Instant lastPass;
    volatile List<ObservedContainer> lastObserved = List.of();
    volatile Map<String, HostStatus.Process> lastProcesses = Map.of();
    volatile Set<String> lastFenced = Set.of();
    /** What the last pass saw of each component (restarts, health), and over which generation. */
    volatile Map<String, Vitals> lastVitals = Map.of();
    volatile long judgedGeneration;
    /** The free space where volumes live, read at each status (null in a state built by hand: none said). */
    volatile DiskSpace disks;
    /** The newest controller epoch and seat this agent heard from (docs/seat.md). */
    volatile SeatEpochs seats;
    /** How long the last apply of a plan took (seconds; NaN before the first), how many applies and their seconds in all. */
    volatile double lastApplySeconds = Double.NaN;
    volatile long applies;
    volatile double applySeconds;
    /** How many passes ended, and over which generation the last one ran: what a status wait waits on (guarded by this). */
    private long passesEnded;
    private long lastPassGeneration;

    AgentState(String node, Clock clock, FailureLog failures) {
        this.node = node;
        this.clock = clock;
        this.failures = failures;
    }

    /** A new declaration to keep: not converged until a pass (or the accept's own look) says so. */
    void desire(Declaration d) {
        desired = d;
        converged = false;
    }

    /** Records the outcome for {@code d}, unless a push has brought a newer generation meanwhile. */
    synchronized void markApplied(Declaration d, boolean done) {
        if (desired == d) {
            converged = done;
            if (done) {
                appliedGeneration = d.generation();
            }
        }
        notifyAll();
    }

    /**
     * Waits, {@code upTo} at most, until {@code generation} is applied and the engine matched it; true if it is. Stops
     * waiting as soon as a newer declaration is desired (its own push answers for it).
     */
    synchronized boolean awaitApplied(long generation, Duration upTo) throws InterruptedException {
        long deadline = System.nanoTime() + upTo.toNanos();
        while (!(converged && appliedGeneration >= generation)) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || desired == null || desired.generation() != generation) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** A pass over {@code generation} ended: a status wait may answer ({@link #await}). */
    synchronized void passEnded(long generation) {
        passesEnded++;
        lastPassGeneration = generation;
        notifyAll();
    }

    /** What a status wait decides on, now. */
    synchronized StatusWait.Seen seen() {
        Declaration d = desired;
        return new StatusWait.Seen(d == null ? 0 : d.generation(), appliedGeneration, converged, passesEnded,
                lastPassGeneration);
    }

    /** Returns when {@code wait} says the status is to be answered ({@link StatusWait#answerNow}), at the latest after {@code upTo}. */
    synchronized void await(StatusWait wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.upTo().toNanos();
        StatusWait.Seen asked = seen();
        while (!wait.answerNow(asked, seen())) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /** What a look saw: the engine's and the supervisor's components, the fenced modules (null: unchanged). */
    void saw(List<ObservedContainer> all, Set<String> fenced, List<ProcessStatus> processes) {
        if (fenced != null) {
            lastFenced = fenced;
        }
        lastObserved = all;
        Map<String, HostStatus.Process> byName = new HashMap<>();
        for (ProcessStatus s : processes) {
            byName.put(s.component(), new HostStatus.Process(s.state(), s.pid(), s.restarts(), s.lastExit(), s.lastExitAt(),
                    s.nextStartAt()));
        }
        lastProcesses = byName;
    }

    /** Runs one apply of a plan and keeps how long it took (the loop's thread is the one writer). */
    <T> T timedApply(java.util.function.Supplier<T> apply) {
        long began = System.nanoTime();
        try {
            return apply.get();
        } finally {
            double took = (System.nanoTime() - began) / 1e9;
            lastApplySeconds = took;
            applySeconds += took;
            applies++;
        }
    }

    /** Where the agent stands, as of its last look (at most one interval old). */
    HostStatus status(EdgeStatus edge) {
        return StatusReport.of(node).declaration(desired).applied(appliedGeneration).converged(converged).lastPass(lastPass)
                .observed(lastObserved).failures(failures.reasons()).processes(lastProcesses).vitals(lastVitals)
                .judged(judgedGeneration).fenced(lastFenced).at(clock.instant()).withEdge(edge)
                .withDisks(disks == null ? List.of() : disks.places());
    }

    /** The module's volume names in the declaration kept, sorted. */
    List<String> declaredVolumes(String module) {
        Declaration d = desired;
        return d == null ? List.of() : d.components().stream().filter(c -> c.module().equals(module))
                .flatMap(c -> c.volumes().keySet().stream()).distinct().sorted().toList();
    }
}
