package mesh.controller;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.model.Conflict;
import mesh.model.NotFound;
import mesh.model.OperationState;
import mesh.model.Placement;
import mesh.model.TakeStep;
import mesh.plan.Operation;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import mesh.plan.TakeWords;
import mesh.store.MeshStore;
import mesh.store.TakeRecords;
import mesh.wire.CopyProgress;
import mesh.wire.TakeView;

/**
 * TakeOperation is the take as the {@link OperationRunner} carries it out (docs/take.md): found by its module, its
 * record in the store's takes ({@link TakeRecords}), decided by {@link TakePlan}, one handler a step
 * ({@link TakeSteps}), and the store's take lock, so two controllers never carry one take out at once. Its progress
 * is the copy's last line as the operator reads it.
 */
final class TakeOperation implements OperationRunner.Kind<String, Take, TakeView.Progress> {

    private final MeshStore store;
    private final TakeSteps handlers;
    private final Map<Enum<?>, OperationRunner.Step<Take, TakeView.Progress>> steps = new HashMap<>();

    TakeOperation(MeshStore store, TakeSteps handlers) {
        this.store = store;
        this.handlers = handlers;
        handlers.handlers().forEach((step, h) -> steps.put(step, (t, progress) -> h.carryOut(t,
                line -> progress.accept(progress(t, line)))));
    }

    @Override
    public String name() {
        return "take";
    }

    @Override
    public Operation.Plan<Take> plan() {
        return TakePlan.PLAN;
    }

    @Override
    public Optional<Take> load(String module) {
        return store.inTransaction(c -> TakeRecords.running(c, module));
    }

    @Override
    public void save(Take before, Take next) {
        store.inTransaction(c -> {
            TakeRecords.save(c, next);
            return null;
        });
    }

    @Override
    public Map<Enum<?>, OperationRunner.Step<Take, TakeView.Progress>> steps() {
        return steps;
    }

    @Override
    public AutoCloseable tryLock(String module) {
        return store.tryLockTake(module);
    }

    @Override
    public void before(Take t) {
        TakeTestHold.before(t.step());
    }

    @Override
    public Duration deadline(Take t) {
        return TakeTestHold.deadline(t.step(), TakePlan.deadline(t));
    }

    /**
     * Checks a take's request (the node and module are known, the module does not already run there, no other take of
     * it is under way, no backup or restore of it) and records the take, in one transaction; a take of the same module
     * to the same node that has not ended and that no runner carries out ({@code active}) is returned to be carried on.
     * A dry run records nothing.
     */
    Take record(String node, String module, boolean dryRun, boolean back, boolean stopAndCopy,
                java.util.function.Predicate<String> active, AuditTrail audit) {
        return store.inTransaction(c -> {
            if (node == null || store.node(c, node).isEmpty()) {
                throw new NotFound("unknown node " + node + "; 'mesh node list' shows the nodes");
            }
            Placement p = placement(c, module);
            if (!dryRun) {
                UnderWay.refuse(c, module, UnderWay.Verb.TAKE);
            }
            Optional<Take> running = TakeRecords.running(c, module);
            if (running.isPresent()) {
                Take r = running.get();
                if (!r.to().equals(node)) {
                    throw new Conflict("a take of module " + module + " to " + r.to() + " has not ended (step " + r.step()
                            + "); 'mesh take " + r.to() + " " + module + "' carries it on");
                }
                if (active.test(module) || dryRun) {
                    throw new Conflict("a take of module " + module + " to " + node + " is already running (step "
                            + r.step() + "); 'mesh status' shows it");
                }
                return r;
            }
            if (node.equals(p.taken())) {
                throw new Conflict("module " + module + " already runs on " + node + ": nothing to take");
            }
            CordonGuard.refuse(c, "take", module, node, false);
            Take t = Take.start(module, p.taken(), node, dryRun ? 0 : TakeRecords.nextEpoch(c), back).withStopAndCopy(stopAndCopy);
            if (!dryRun) {
                TakeRecords.insert(c, t);
                audit.record(c, "take", "module " + module + ": " + (back ? "taken back" : "take") + " to " + node
                        + (p.taken() == null ? " (it ran nowhere)" : " from " + p.taken()) + " begun, epoch " + t.epoch());
            }
            return t;
        });
    }

    /** The module's placement (none yet: it runs nowhere); an unknown module is refused. */
    Placement placement(Connection c, String module) throws SQLException {
        if (module == null || !store.hasModule(c, module)) {
            throw new NotFound("unknown module " + module + "; 'mesh catalogue list' shows the modules");
        }
        return store.placement(c, module);
    }

    /** {@code mesh take --dry-run}: the preflight's reads (nothing fetched), then the steps the take would carry out. */
    TakeView dryRun(Take t) {
        Operation.Outcome found = handlers.preflight(t, handlers.where(t.module()), false);
        if (found instanceof Operation.Failed f) {
            throw new Conflict("preflight: " + f.words());
        }
        Take checked = TakePlan.after(t, found);
        List<String> ahead = new ArrayList<>(List.of(TakeWords.describe(t)));
        ahead.addAll(TakeWords.stepsAhead(checked));
        return new TakeView(t.module(), t.from(), t.to(), 0, t.back(), t.step(), OperationState.DRY_RUN, false,
                TakeViews.volumes(checked.volumes()), null, null, null, notes(t), ahead);
    }

    /** A copy's line as the operator reads it: the volume, the bytes so far of its total, the rate and the time left. */
    static TakeView.Progress progress(Take t, CopyProgress line) {
        Take.Volume v = t.step() == TakeStep.PRE_COPY ? t.nextToPreCopy(TakePlan.preCopyPass(t)) : t.nextToCopy();
        long total = v == null || !v.passes().isEmpty() ? 0 : v.bytes();   // a pass after the first sends only what changed
        long bytes = line.bytes() == null ? 0 : line.bytes();
        long rate = line.rate() == null ? 0 : line.rate();
        long left = rate > 0 && total >= bytes ? (total - bytes) / rate : -1;
        return new TakeView.Progress(v == null ? null : v.name(), bytes, line.files() == null ? 0 : line.files(), total, rate, left);
    }

    /** The take as {@code mesh take} and {@code mesh status} show it. */
    static TakeView view(Take t, boolean active, TakeView.Progress copying, List<String> steps) {
        return new TakeView(t.module(), t.from(), t.to(), t.epoch(), t.back(), t.step(), t.step().state(), active, TakeViews.volumes(t.volumes()),
                t.step() == TakeStep.COPY || t.step() == TakeStep.PRE_COPY ? copying : null, t.error(), t.problem(), notes(t), steps);
    }

    static List<String> notes(Take t) {
        return t.back() ? List.of("data written on " + t.from() + " since the module was taken there is carried back to "
                + t.to() + ", since it is copied again") : List.of();
    }
}
