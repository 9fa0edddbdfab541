package mesh.host;

import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import mesh.host.process.ProcessSupervisor;

/**
 * ReconcileProcesses restarts the supervised processes that ended and are due (their backoff), on every
 * pass, whatever the engine says: a process needs no engine, so it runs even in a pass that backs off
 * from a failing engine. Logs what it started or gave up on, not what it kept or is still waiting for.
 * Never throws: a supervisor failure is logged and the pass goes on.
 */
final class ReconcileProcesses implements PassStep {

    private final Function<java.time.Instant, List<ProcessSupervisor.Outcome>> reconcile;
    private final Clock clock;
    private final Consumer<String> info;
    private final Consumer<String> warn;

    ReconcileProcesses(Function<java.time.Instant, List<ProcessSupervisor.Outcome>> reconcile, Clock clock,
                       Consumer<String> info, Consumer<String> warn) {
        this.reconcile = reconcile;
        this.clock = clock;
        this.info = info;
        this.warn = warn;
    }

    @Override
    public void run(Context pass) {
        run();
    }

    /** The same, outside a pass's context (a pass that skips the engine). */
    void run() {
        try {
            for (ProcessSupervisor.Outcome o : reconcile.apply(clock.instant())) {
                if (worthSaying(o.action())) {
                    info.accept(o.action() + " " + o.component() + ": " + o.detail());
                }
            }
        } catch (RuntimeException e) {
            warn.accept("the process supervisor failed: " + e.getMessage());
        }
    }

    /** Whether an outcome is a change worth a log line: a process kept, or still waiting for its start, is not. */
    static boolean worthSaying(ProcessSupervisor.Action action) {
        return action != ProcessSupervisor.Action.KEPT && action != ProcessSupervisor.Action.WAITING;
    }
}
