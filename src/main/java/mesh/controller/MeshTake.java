package mesh.controller;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import mesh.model.Conflict;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.model.Poll;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import mesh.plan.TakeStart;
import mesh.store.MeshStore;
import mesh.store.TakeRecords;
import mesh.wire.TakeView;

/**
 * MeshTake is {@code mesh take}: it checks the request, records the take and hands it to its
 * {@link OperationRunner} ({@link TakeOperation}: {@link TakeSteps} acts, {@link TakePlan} decides). The operator's
 * call returns at once; {@code mesh take} follows the take with {@link #view}. A take whose runner died or let go is
 * carried on by the next {@code mesh take} of it, and by a controller's start ({@link #resumeAll}).
 */
@ApplicationScoped
public class MeshTake {

    @Inject MeshStore store;
    @Inject MeshPush pushes;
    @Inject PushSender sender;
    @Inject MeshSecrets secrets;
    @Inject AuditTrail audit;
    @Inject AgentClient agents;

    private TakeOperation operation;
    private OperationRunner<String, Take, TakeView.Progress> runner;

    @PostConstruct
    void init() {
        operation = new TakeOperation(store, new TakeSteps(store, pushes, sender, secrets, agents));
        runner = new OperationRunner<>(operation);
    }

    /** The runner of takes, for an operation that runs takes in its steps. */
    OperationRunner<String, Take, TakeView.Progress> runner() {
        return runner;
    }

    /** Takes {@code module} to {@code node}; {@code stopAndCopy}: no pre-copy, the data is copied only after the fence. */
    public TakeView take(String node, String module, boolean dryRun, boolean stopAndCopy) {
        return begin(node, module, dryRun, false, stopAndCopy);
    }

    /** Returns {@code module} to the node the last take brought it from, with the same steps and checks. */
    public TakeView back(String module, boolean dryRun, boolean stopAndCopy) {
        Take reversed = store.inTransaction(c -> {
            Placement p = operation.placement(c, module);
            return TakeStart.toReverse(TakeRecords.history(c, module), p).orElseThrow(() -> new Conflict("module " + module
                    + " has nothing to go back to: no take brought it " + (p.taken() == null ? "anywhere (it runs nowhere)"
                    : "to " + p.taken() + ", where it runs")));
        });
        return begin(reversed.from(), module, dryRun, true, stopAndCopy);
    }

    /**
     * Checks (the node and module are known, the module does not already run there, no other take of it is under way),
     * then records the take and starts its runner; a take of the same module to the same node that has not ended and
     * has no runner is carried on instead. A dry run runs the preflight's reads and says the steps, recording nothing.
     */
    private TakeView begin(String node, String module, boolean dryRun, boolean back, boolean stopAndCopy) {
        Take take = operation.record(node, module, dryRun, back, stopAndCopy, runner::active, audit);
        if (dryRun) {
            return operation.dryRun(take);
        }
        if (!runner.start(module)) {
            throw new Conflict("a take of module " + module + " is already being carried out by another controller");
        }
        return TakeOperation.view(take, runner.active(module), null, List.of());
    }

    /** Takes {@code module} to {@code node} to its end in this thread (a drain's step), carrying on or awaiting one under way. */
    Take runToEnd(String node, String module, Poll.Clock clock) {
        waitWhileActive(module, clock);
        Take take = operation.record(node, module, false, false, false, runner::active, audit);
        if (!take.step().ended()) {
            try {
                take = runner.runHere(module);
            } catch (Conflict busy) {
                waitWhileActive(module, clock);   // a controller's start resumed it meanwhile
            }
        }
        return store.inTransaction(c -> TakeRecords.newest(c, module)).orElse(take);
    }

    private void waitWhileActive(String module, Poll.Clock clock) {
        while (runner.active(module)) {
            clock.pause(java.time.Duration.ofMillis(300));
        }
    }

    /** Carries on every take a dead runner left (a controller's start): each that no other controller carries out. */
    public void resumeAll() {
        runner.resume(store.inTransaction(TakeRecords::running).stream().map(Take::module).toList());
    }

    /** The module's newest take as it stands. */
    public TakeView view(String module) {
        Take t = store.inTransaction(c -> {
            operation.placement(c, module);
            return TakeRecords.newest(c, module).orElseThrow(() -> new NotFound("module " + module + " was never taken"));
        });
        return TakeOperation.view(t, runner.active(module), runner.progress(module), List.of());
    }

    /** Every take that has not ended, for {@code mesh status}. */
    public List<TakeView> running() {
        return store.inTransaction(TakeRecords::running).stream()
                .map(t -> TakeOperation.view(t, runner.active(t.module()), runner.progress(t.module()), List.of())).toList();
    }
}
