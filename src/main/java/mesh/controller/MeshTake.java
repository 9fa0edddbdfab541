package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import mesh.model.Conflict;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import mesh.plan.TakeStart;
import mesh.model.TakeStep;
import mesh.store.MeshStore;
import mesh.store.TakeLock;
import mesh.store.TakeRecords;
import mesh.wire.TakeView;
import mesh.wire.CopyProgress;
import org.jboss.logging.Logger;

/**
 * MeshTake is {@code mesh take}: it checks the request, records the take, and carries it out step
 * by step on a thread of its own ({@link TakeSteps} acts, {@link TakePlan} decides), recording each
 * step's result before the next. The operator's call returns at once; {@code mesh take} follows the
 * take with {@link #view}. A take whose runner died (the controller was killed) is carried on by the
 * next {@code mesh take} of it, and by a controller's start ({@link #resumeAll}); a {@link TakeLock}
 * keeps two runners off one take.
 */
@ApplicationScoped
public class MeshTake {

    private static final Logger LOG = Logger.getLogger("mesh.controller");

    /** How often a step that must not roll back (from the switch on, and the rollback's own) is tried before the take waits for the operator. */
    static final int TRIES = 5;
    static final Duration BETWEEN_TRIES = Duration.ofSeconds(3);

    @Inject
    MeshStore store;

    @Inject
    MeshPush pushes;

    @Inject
    PushSender sender;

    @Inject
    MeshSecrets secrets;

    @Inject
    AuditTrail audit;

    @Inject
    AgentClient agents;

    /** The modules whose take a runner of this controller carries out now. */
    private final Set<String> active = ConcurrentHashMap.newKeySet();
    /** The copy's last progress line, by module, while it runs. */
    private final Map<String, TakeView.Progress> copying = new ConcurrentHashMap<>();

    private TakeSteps steps() {
        return new TakeSteps(store, pushes, sender, secrets, agents);
    }

    /** Takes {@code module} to {@code node}; see {@link #begin}. */
    public TakeView take(String node, String module, boolean dryRun) {
        return take(node, module, dryRun, false);
    }

    /** As above; {@code stopAndCopy}: no pre-copy, the data is copied only after the fence. */
    public TakeView take(String node, String module, boolean dryRun, boolean stopAndCopy) {
        return begin(node, module, dryRun, false, stopAndCopy);
    }

    /** Returns {@code module} to the node the last take brought it from, with the same steps and checks. */
    public TakeView back(String module, boolean dryRun) {
        return back(module, dryRun, false);
    }

    /** As above; {@code stopAndCopy}: no pre-copy. */
    public TakeView back(String module, boolean dryRun, boolean stopAndCopy) {
        Take reversed = store.inTransaction(c -> {
            existingModule(c, module);
            Placement p = placement(c, module);
            return TakeStart.toReverse(TakeRecords.history(c, module), p).orElseThrow(() -> new Conflict("module " + module
                    + " has nothing to go back to: no take brought it " + (p.taken() == null ? "anywhere (it runs nowhere)"
                    : "to " + p.taken() + ", where it runs")));
        });
        return begin(reversed.from(), module, dryRun, true, stopAndCopy);
    }

    /**
     * Checks (the node and module are known, the module does not already run there, no other take of
     * it is under way), then records the take and starts its runner; a take of the same module to the
     * same node that has not ended and has no runner is carried on instead. A dry run runs the
     * preflight's reads and says the steps, recording nothing.
     */
    private TakeView begin(String node, String module, boolean dryRun, boolean back, boolean stopAndCopy) {
        Take take = store.inTransaction(c -> {
            existingNode(c, node);
            existingModule(c, module);
            Placement p = placement(c, module);
            if (!dryRun) {
                BackupGuard.refuseWhileBackedUp(c, module);
            }
            Optional<Take> running = TakeRecords.running(c, module);
            if (running.isPresent()) {
                Take r = running.get();
                if (!r.to().equals(node)) {
                    throw new Conflict("a take of module " + module + " to " + r.to() + " has not ended (step " + r.step()
                            + "); 'mesh take " + r.to() + " " + module + "' carries it on");
                }
                if (active.contains(module) || dryRun) {
                    throw new Conflict("a take of module " + module + " to " + node + " is already running (step "
                            + r.step() + "); 'mesh status' shows it");
                }
                return r;
            }
            if (node.equals(p.taken())) {
                throw new Conflict("module " + module + " already runs on " + node + ": nothing to take");
            }
            if (dryRun) {
                return Take.start(module, p.taken(), node, 0, back).withStopAndCopy(stopAndCopy);
            }
            Take t = Take.start(module, p.taken(), node, TakeRecords.nextEpoch(c), back).withStopAndCopy(stopAndCopy);
            TakeRecords.insert(c, t);
            audit.record(c, "take", "module " + module + ": " + (back ? "taken back" : "take") + " to " + node
                    + (p.taken() == null ? " (it ran nowhere)" : " from " + p.taken()) + " begun, epoch " + t.epoch());
            return t;
        });
        if (dryRun) {
            return dryRun(take);
        }
        if (!runInBackground(module)) {
            throw new Conflict("a take of module " + module + " is already being carried out by another controller");
        }
        return view(take, List.of());
    }

    private TakeView dryRun(Take t) {
        TakeSteps s = steps();
        TakePlan.Outcome found = s.preflight(t, s.where(t.module()), false);
        if (found instanceof TakePlan.Failed f) {
            throw new Conflict("preflight: " + f.why());
        }
        Take checked = TakePlan.after(t, found);
        List<String> ahead = new ArrayList<>();
        ahead.add(TakePlan.describe(t));
        ahead.addAll(TakePlan.stepsAhead(checked));
        return new TakeView(t.module(), t.from(), t.to(), 0, t.back(), t.step(), mesh.model.OperationState.DRY_RUN, false, TakeViews.volumes(checked.volumes()), null,
                null, null, notes(t), ahead);
    }

    /** Starts a runner for the module's take unless one holds its lock; whether one was started. */
    private boolean runInBackground(String module) {
        TakeLock lock = store.tryLockTake(module);
        if (lock == null) {
            return false;
        }
        if (!active.add(module)) {
            lock.close();
            return true;
        }
        Thread.ofVirtual().name("take-" + module).start(() -> {
            try (lock) {
                run(module);
            } catch (RuntimeException e) {
                LOG.errorf("take of %s: %s; 'mesh take' carries it on", module, e.getMessage());
            } finally {
                active.remove(module);
                copying.remove(module);
            }
        });
        return true;
    }

    /** The runner: carry out the recorded step, record what it found, until the take ends or waits for the operator. */
    private void run(String module) {
        TakeSteps steps = steps();
        int tries = 0;
        while (true) {
            Take t = store.inTransaction(c -> TakeRecords.running(c, module)).orElse(null);
            if (t == null || t.step().ended()) {
                return;
            }
            TakeTestHold.before(t.step());
            LOG.infof("take of %s (epoch %d): %s", module, t.epoch(), TakePlan.describe(t));
            TakePlan.Outcome found = steps.carryOut(t, line -> copying.put(module, progress(t, line)));
            copying.remove(module);
            Take next = TakePlan.after(t, found);
            store.inTransaction(c -> {
                TakeRecords.save(c, next);
                return null;
            });
            if (next.step() == t.step() && next.problem() != null) {
                LOG.warnf("take of %s: %s", module, next.problem());
                if (++tries >= TRIES) {
                    Take ended = TakePlan.gaveUp(next);
                    if (ended != next) {   // a delete-copy after the source runs again: rolled back, the copy left
                        store.inTransaction(c -> {
                            TakeRecords.save(c, ended);
                            return null;
                        });
                        LOG.warnf("take of %s rolled back: %s", module, ended.problem());
                    }
                    return;  // otherwise the take waits: 'mesh take' carries it on
                }
                TakeSteps.sleep(BETWEEN_TRIES);
            } else {
                tries = 0;
            }
        }
    }

    private static TakeView.Progress progress(Take t, CopyProgress line) {
        Take.Volume v = t.step() == TakeStep.PRE_COPY ? t.nextToPreCopy(mesh.plan.TakePlan.preCopyPass(t)) : t.nextToCopy();
        long total = v == null || !v.passes().isEmpty() ? 0 : v.bytes();   // a pass after the first sends only what changed
        long bytes = line.bytes() == null ? 0 : line.bytes();
        long rate = line.rate() == null ? 0 : line.rate();
        long left = rate > 0 && total >= bytes ? (total - bytes) / rate : -1;
        return new TakeView.Progress(v == null ? null : v.name(), bytes, line.files() == null ? 0 : line.files(), total, rate, left);
    }

    /** Carries on every take a dead runner left (a controller's start): each that no other controller carries out. */
    public void resumeAll() {
        List<Take> running = store.inTransaction(TakeRecords::running);
        for (Take t : running) {
            if (runInBackground(t.module())) {
                LOG.infof("carrying on the take of %s to %s at step %s", t.module(), t.to(), t.step());
            }
        }
    }

    /** The module's newest take as it stands. */
    public TakeView view(String module) {
        Take t = store.inTransaction(c -> {
            existingModule(c, module);
            return TakeRecords.newest(c, module).orElseThrow(() -> new NotFound("module " + module + " was never taken"));
        });
        return view(t, List.of());
    }

    /** Every take that has not ended, for {@code mesh status}. */
    public List<TakeView> running() {
        return store.inTransaction(TakeRecords::running).stream().map(t -> view(t, List.of())).toList();
    }

    private TakeView view(Take t, List<String> steps) {
        return new TakeView(t.module(), t.from(), t.to(), t.epoch(), t.back(), t.step(), t.step().state(),
                active.contains(t.module()), TakeViews.volumes(t.volumes()), t.step() == TakeStep.COPY || t.step() == TakeStep.PRE_COPY ? copying.get(t.module()) : null,
                t.error(), t.problem(), notes(t), steps);
    }

    private static List<String> notes(Take t) {
        return t.back() ? List.of("data written on " + t.from() + " since the module was taken there is carried back to "
                + t.to() + ", since it is copied again") : List.of();
    }

    private void existingNode(Connection c, String name) throws SQLException {
        if (name == null || store.node(c, name).isEmpty()) {
            throw new NotFound("unknown node " + name + "; 'mesh node list' shows the nodes");
        }
    }

    private void existingModule(Connection c, String module) throws SQLException {
        if (module == null || !store.hasModule(c, module)) {
            throw new NotFound("unknown module " + module + "; 'mesh catalogue list' shows the modules");
        }
    }

    private Placement placement(Connection c, String module) throws SQLException {
        return store.placements(c).stream().filter(p -> p.module().equals(module)).findFirst()
                .orElse(new Placement(module, null, null));
    }
}
