package mesh.host;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import mesh.docker.Engine;
import mesh.plan.BundleRetention;
import mesh.wire.HostStatus;
import org.jboss.logging.Logger;

/**
 * PassSteps is the agent's pass as a list: which steps, in which order, each given the parts it needs.
 * Reading this file top to bottom is reading what one pass does ({@link HostPass} runs it).
 */
final class PassSteps {

    private PassSteps() {
    }

    /** The agent's parts a pass works with. */
    record Parts(HostSettings settings, Engine engine, ProcessComponents processes, HostIntake intake, AgentState state,
                 HostLoop loop, ModuleStops modules, ExecutorService pool, KeepEdge edge, Supplier<HostStatus> status,
                 Clock clock, StartGate gate, ContainerRestarts restarts) {
    }

    static HostPass pass(Parts p, Logger log) {
        AgentState state = p.state();
        ReconcileProcesses reconcile = new ReconcileProcesses(now -> p.processes().supervisor().reconcile(now,
                heldNow(p)::contains), p.clock(), log::info, log::warn);
        ContainerRestarts restarts = p.restarts();
        List<PassStep> steps = List.of(
                new KeepFences(p.intake()::fenced, p.modules()::moduleRuns, p.modules()::stopNow, f -> state.lastFenced = f,
                        log::info),
                reconcile,
                new NoEngineRestarts(() -> p.engine().stopEngineRestarts(p.settings().node()), log::info),
                new ObserveStep(p.intake()::unfenced, () -> p.processes().status(p.clock().instant()), state, began -> {
                    state.failures.note(HostStatus.ENGINE, null, began);
                    p.loop().engineAnswered();
                }),
                restarts,
                new ApplyStep((d, plan) -> state.timedApply(() -> new ApplyRun(p.engine(), p.processes(), p.settings().networks(),
                        p.pool(), log::info, p.edge().keeps() ? p.edge() : null).run(d, plan)), node -> {
                            var all = p.intake().observe(node);
                            state.saw(all, null, p.processes().status(p.clock().instant()));
                            return all;
                        }),
                new LookStep(new ComponentLook(p.engine(), p.processes(), p.pool(), restarts::restarts)::look, state, p.clock()),
                new PruneNetworks(p.engine()::networks, p.engine()::removeNetwork, state, log::info, log::warn),
                new MarkApplied(state),
                new LookAgainSoon(p.status(), p.loop()::lookAgainSoon),
                p.edge(),
                new CleanBundles((d, now) -> p.processes().clean(d, now, BundleRetention.Policy.DEFAULT), p.clock(),
                        log::info, log::warn));
        return new HostPass(state, p.loop(), reconcile, steps, p.clock(), p.gate()::engineFailed);
    }

    /**
     * The modules the start hold keeps back for the supervisor, before this pass's look: from the declaration kept, the
     * containers the last look saw and the processes that run now.
     */
    private static java.util.Set<String> heldNow(Parts p) {
        List<mesh.model.ObservedContainer> seen = new java.util.ArrayList<>(p.state().lastObserved.stream()
                .filter(o -> !o.process()).toList());
        seen.addAll(p.processes().observe(p.clock().instant()));
        return p.gate().heldQuietly(p.state().desired, seen);
    }
}
