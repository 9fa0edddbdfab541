package mesh.host;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import mesh.model.Declaration;
import mesh.wire.HostStatus;

/**
 * HostPass runs one pass of the agent: its steps, in their order, over the declaration it keeps the node
 * at. Never throws: the loop must survive every failure; a step that throws makes the pass an engine
 * failure, which the loop backs off from. While it backs off, a pass that is not forced (by a refresh)
 * only reconciles the processes, which need no engine.
 *
 * <pre>
 *  KeepFences ─► ReconcileProcesses ─► NoEngineRestarts ─► ObserveStep ─► ContainerRestarts ─► ApplyStep
 *      ─► LookStep ─► PruneNetworks ─► MarkApplied ─► LookAgainSoon ─► KeepEdge ─► CleanBundles
 * </pre>
 */
final class HostPass {

    private final AgentState state;
    private final HostLoop loop;
    private final ReconcileProcesses processes;
    private final List<PassStep> steps;
    private final Clock clock;
    private final Runnable engineFailed;

    /** {@code steps} in the order they run; {@code processes} is also run alone while the engine backs off. */
    HostPass(AgentState state, HostLoop loop, ReconcileProcesses processes, List<PassStep> steps, Clock clock) {
        this(state, loop, processes, steps, clock, () -> { });
    }

    /** As above; {@code engineFailed} is told of each pass the engine failed (the start hold arms again on its return). */
    HostPass(AgentState state, HostLoop loop, ReconcileProcesses processes, List<PassStep> steps, Clock clock,
             Runnable engineFailed) {
        this.state = state;
        this.loop = loop;
        this.processes = processes;
        this.steps = List.copyOf(steps);
        this.clock = clock;
        this.engineFailed = engineFailed;
    }

    /** The steps, in their order: what a pass does. */
    List<PassStep> steps() {
        return steps;
    }

    void run(boolean forced) {
        state.passing = true;   // before reading desired: accept must not call a pass's half-done work applied
        Declaration d = state.desired;
        if (d == null) {
            state.passing = false;
            return;
        }
        Instant now = clock.instant();
        if (!loop.engineDue(now, forced)) {
            processes.run();
            state.passing = false;
            state.passEnded(d.generation());
            return;
        }
        PassStep.Context pass = new PassStep.Context(d, now);
        try {
            for (PassStep step : steps) {
                step.run(pass);
            }
        } catch (RuntimeException e) {
            state.failures.note(HostStatus.ENGINE, e.getMessage() == null ? "the engine call failed without a reason"
                    : e.getMessage(), now);
            loop.engineFailed(now, state.failures.passes(HostStatus.ENGINE));
            engineFailed.run();
            state.converged = false;
        } finally {
            state.lastPass = clock.instant();
            state.passing = false;
            state.passEnded(d.generation());
        }
    }
}
