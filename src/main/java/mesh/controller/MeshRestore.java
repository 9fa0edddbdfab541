package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import mesh.model.Conflict;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.plan.Backup;
import mesh.model.BackupStep;
import mesh.plan.Restore;
import mesh.plan.RestorePlan;
import mesh.model.RestoreStep;
import mesh.plan.TakePlan;
import mesh.model.TakeStep;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.store.TakeRecords;
import mesh.wire.BackupProgress;
import mesh.wire.BackupRestoreRequest;
import mesh.model.BackupVolume;
import mesh.wire.RestoreView;
import org.jboss.logging.Logger;

/**
 * MeshRestore is {@code mesh restore} (docs/backup.md, "Restore"): a take whose data comes from a backup. It records the
 * restore and carries it out step by step ({@link RestorePlan} decides); the start, the switch, the push and a
 * rollback's stop-target and delete-copy are the take's own ({@link TakeSteps}), the fence and the old copy the take's
 * agent calls. When the module's node does not answer, its copy is marked lost in the store instead of fenced, and
 * {@link BackupWatch} fences it there the first time its agent answers again.
 */
@ApplicationScoped
public class MeshRestore {

    private static final Logger LOG = Logger.getLogger("mesh.controller");
    static final int TRIES = 20;
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

    private final Set<Long> active = ConcurrentHashMap.newKeySet();
    private final Map<Long, BackupProgress> progress = new ConcurrentHashMap<>();

    /** What a restore starts from: the module's manifest, placement and the backup. */
    private record Start(Restore restore, Backup backup, List<String> images) {
    }

    public RestoreView begin(String module, Long backupId, String to, boolean dryRun) {
        Start s = store.inTransaction(c -> {
            Manifest m = store.module(c, module).map(MeshStore.StoredModule::manifest).orElseThrow(() -> new NotFound(
                    "unknown module " + module + "; 'mesh catalogue list' shows the modules"));
            Placement p = store.placements(c).stream().filter(x -> x.module().equals(module)).findFirst()
                    .orElse(new Placement(module, null, null));
            String target = to != null ? to : p.taken();
            if (target == null) {
                throw new Conflict("module " + module + " runs nowhere: say where to restore it with --to NODE");
            }
            if (store.node(c, target).isEmpty()) {
                throw new NotFound("unknown node " + target + "; 'mesh node list' shows the nodes");
            }
            if (target.equals(p.taken())) {
                throw new Conflict("module " + module + " runs on " + target + ": a restore writes the backup onto another node"
                        + " (--to NODE), then 'mesh take " + target + " " + module + "' brings it back with that data");
            }
            Backup b = chosen(c, module, backupId);
            if (TakeRecords.running(c, module).isPresent()) {
                throw new Conflict("a take of module " + module + " is under way; restore it after it ends");
            }
            if (BackupRecords.runningRestore(c, module).isPresent()) {
                throw new Conflict("a restore of module " + module + " is under way; 'mesh status' shows it");
            }
            if (BackupRecords.list(c, module, false).stream().anyMatch(r -> !r.backup().step().ended())) {
                throw new Conflict("a backup of module " + module + " is under way; restore after it ends");
            }
            List<String> images = m.components().values().stream().map(Manifest.Component::image)
                    .filter(java.util.Objects::nonNull).distinct().sorted().toList();
            if (dryRun) {
                return new Start(Restore.start(0, module, b.id(), p.taken(), target, 0, b.volumes()), b, images);
            }
            Restore r = Restore.start(BackupRecords.nextRestoreId(c), module, b.id(), p.taken(), target, TakeRecords.nextEpoch(c),
                    b.volumes());
            BackupRecords.insert(c, r);
            audit.record(c, "restore", "module " + module + ": restore of backup " + b.id() + " to " + target + " begun, epoch "
                    + r.epoch() + (p.taken() == null ? " (it ran nowhere)" : " (it ran on " + p.taken() + ")"));
            return new Start(r, b, images);
        });
        if (dryRun) {
            return dryRun(s);
        }
        runInBackground(s.restore().id());
        return view(s.restore().id());
    }

    /** The backup a restore brings back: the one named (of this module, done, kept), or the newest done one. */
    private static Backup chosen(java.sql.Connection c, String module, Long id) throws java.sql.SQLException {
        if (id != null) {
            BackupRecords.Row r = BackupRecords.byId(c, id).orElseThrow(() -> new NotFound("no backup " + id + "; 'mesh backup list "
                    + module + "' shows the module's backups"));
            if (!r.backup().module().equals(module)) {
                throw new Conflict("backup " + id + " is of module " + r.backup().module() + ", not " + module);
            }
            if (r.backup().step() != BackupStep.DONE || r.removedAt() != null) {
                throw new Conflict("backup " + id + " of module " + module + " is " + (r.removedAt() != null ? "removed (keep)"
                        : r.backup().step().state()) + ": only a backup that is done can be restored");
            }
            return r.backup();
        }
        return BackupRecords.list(c, module, false).stream().map(BackupRecords.Row::backup)
                .filter(b -> b.step() == BackupStep.DONE).findFirst()
                .orElseThrow(() -> new Conflict("module " + module + " has no backup that is done; 'mesh backup " + module + "' makes one"));
    }

    private RestoreView dryRun(Start s) {
        Restore r = s.restore();
        Node target = node(r.to());
        agents.status(target);
        boolean sourceAnswers = r.from() != null && answers(r.from());
        List<String> steps = new java.util.ArrayList<>();
        steps.add("preflight: " + r.to() + " answers and has (or pulls) the images " + String.join(", ", s.images()));
        steps.addAll(RestorePlan.stepsAhead(r, sourceAnswers));
        return new RestoreView(0, r.module(), r.backup(), r.from(), r.to(), 0, r.from() != null && !sourceAnswers, r.step(),
                mesh.model.OperationState.DRY_RUN, r.volumes(), null, null, null, steps);
    }

    private boolean answers(String name) {
        return agents.answers(node(name));
    }

    private void runInBackground(long id) {
        if (!active.add(id)) {
            return;
        }
        Thread.ofVirtual().name("restore-" + id).start(() -> {
            try {
                run(id);
            } catch (RuntimeException e) {
                LOG.errorf("restore %d: %s; the controller's next start carries it on", id, e.getMessage());
            } finally {
                active.remove(id);
                progress.remove(id);
            }
        });
    }

    private void run(long id) {
        TakeSteps steps = new TakeSteps(store, pushes, sender, secrets, agents);
        int tries = 0;
        while (true) {
            Restore r = store.inTransaction(c -> BackupRecords.restore(c, id)).map(BackupRecords.RestoreRow::restore).orElse(null);
            if (r == null || r.step().ended()) {
                return;
            }
            LOG.infof("restore %d of %s to %s: step %s", id, r.module(), r.to(), r.step().word());
            RestorePlan.Outcome found = carryOut(r, steps);
            progress.remove(id);
            Restore next = RestorePlan.after(r, found);
            store.inTransaction(c -> {
                BackupRecords.save(c, next);
                if (next.step().ended()) {
                    audit.record(c, "restore", "module " + r.module() + ": restore " + id + " of backup " + r.backup() + " to "
                            + r.to() + " " + next.step().word() + (next.error() == null ? "" : ": " + next.error()));
                }
                return null;
            });
            if (next.step() == r.step() && next.problem() != null) {
                LOG.warnf("restore %d of %s: %s", id, r.module(), next.problem());
                if (++tries >= TRIES) {
                    return;   // it waits: the controller's next start, or 'mesh restore' again, carries it on
                }
                TakeSteps.sleep(BETWEEN_TRIES);
            } else {
                tries = 0;
            }
        }
    }

    private RestorePlan.Outcome carryOut(Restore r, TakeSteps steps) {
        try {
            TakeAgents calls = new TakeAgents(agents);
            return switch (r.step()) {
                case PREFLIGHT -> preflight(r, calls);
                case FENCE -> {
                    calls.fence(node(r.from()), r.module(), r.epoch());
                    yield new RestorePlan.Done();
                }
                case LOSE -> {
                    store.inTransaction(c -> {
                        BackupRecords.lose(c, r.module(), r.from(), r.epoch(), r.volumes());
                        audit.record(c, "restore", "module " + r.module() + ": node " + r.from() + " does not answer; its copy is"
                                + " marked lost, and is fenced there when its agent answers again");
                        return null;
                    });
                    yield new RestorePlan.Done();
                }
                case RESTORE -> restore(r);
                case START, SWITCH, PUSH, STOP_TARGET, DELETE_COPY -> take(steps, r);
                case OLD_COPY -> oldCopy(r, calls);
                case UNFENCE -> unfence(r, calls);
                case DONE, ROLLED_BACK, FAILED -> new RestorePlan.Done();
            };
        } catch (RuntimeException e) {
            return new RestorePlan.Failed(e.getMessage() == null ? "it failed without saying why" : e.getMessage());
        }
    }

    private RestorePlan.Outcome preflight(Restore r, TakeAgents calls) {
        Node target = node(r.to());
        agents.status(target);
        Manifest m = store.inTransaction(c -> store.module(c, r.module())).map(MeshStore.StoredModule::manifest)
                .orElseThrow(() -> new Conflict("module " + r.module() + " is no longer in the catalogue"));
        List<String> images = m.components().values().stream().map(Manifest.Component::image).filter(java.util.Objects::nonNull)
                .distinct().sorted().toList();
        List<mesh.wire.ImagesAnswer.Missing> missing = images.isEmpty() ? List.of() : calls.images(target, images);
        if (!missing.isEmpty()) {
            return new RestorePlan.Failed("node " + r.to() + " lacks " + String.join("; ", missing.stream()
                    .map(x -> "image " + x.image() + " (" + x.why() + ")").toList()) + "; nothing was changed");
        }
        return new RestorePlan.Preflighted(r.from() != null && answers(r.from()));
    }

    private RestorePlan.Outcome restore(Restore r) {
        Backup b = store.inTransaction(c -> BackupRecords.byId(c, r.backup())).map(BackupRecords.Row::backup)
                .orElseThrow(() -> new Conflict("backup " + r.backup() + " is no longer recorded"));
        BackupProgress last = new BackupAgents(agents).restore(node(r.to()), r.module(), new BackupRestoreRequest(r.epoch(),
                b.registry(), b.repository(), b.manifest(), r.volumes()), line -> progress.put(r.id(), line));
        if (!Boolean.TRUE.equals(last.done())) {
            return new RestorePlan.Failed(last.error() == null ? "the restore failed" : last.error());
        }
        return new RestorePlan.Restored(last.volumes());
    }

    private static RestorePlan.Outcome take(TakeSteps steps, Restore r) {
        TakeStep step = TakeStep.valueOf(r.step().name());
        TakePlan.Outcome o = steps.carryOut(r.asTake(step), line -> { });
        return o instanceof TakePlan.Failed f ? new RestorePlan.Failed(f.why()) : new RestorePlan.Done();
    }

    private RestorePlan.Outcome oldCopy(Restore r, TakeAgents calls) {
        List<String> names = r.volumes().stream().map(BackupVolume::name).toList();
        if (!r.lost()) {
            calls.oldCopy(node(r.from()), r.module(), r.epoch(), names);
        }
        store.inTransaction(c -> {
            TakeRecords.recordOldCopy(c, r.module(), r.from(), r.epoch(), names);
            TakeRecords.forget(c, r.module(), r.to(), 0);
            return null;
        });
        return new RestorePlan.Done();
    }

    /** Lifts what this restore set on the source: its lost mark, or its fence; and the target's fence a rollback set. */
    private RestorePlan.Outcome unfence(Restore r, TakeAgents calls) {
        if (r.started()) {
            calls.unfence(node(r.to()), r.module(), r.epoch());
        }
        if (r.lost()) {
            store.inTransaction(c -> {
                BackupRecords.unlose(c, r.module(), r.from(), r.epoch());
                return null;
            });
        } else if (r.from() != null) {
            calls.unfence(node(r.from()), r.module(), r.epoch());
        }
        return new RestorePlan.Done();
    }

    private Node node(String name) {
        return store.inTransaction(c -> store.node(c, name)).orElseThrow(() -> new Conflict("node " + name + " is no longer a node"));
    }

    public void resumeAll() {
        store.inTransaction(BackupRecords::runningRestores).forEach(r -> runInBackground(r.restore().id()));
    }

    public RestoreView view(long id) {
        BackupRecords.RestoreRow row = store.inTransaction(c -> BackupRecords.restore(c, id))
                .orElseThrow(() -> new NotFound("no restore " + id));
        Restore r = row.restore();
        if (!active.contains(id) && !r.step().ended()) {
            runInBackground(id);   // a restore whose runner gave up or died: following it carries it on
        }
        return new RestoreView(r.id(), r.module(), r.backup(), r.from(), r.to(), r.epoch(), r.lost(), r.step(),
                r.step().state(), r.volumes(), r.error(), r.problem(), progress.get(id), null);
    }

    /** The restores under way, for {@code mesh status}. */
    public List<RestoreView> running() {
        return store.inTransaction(BackupRecords::runningRestores).stream().map(r -> view(r.restore().id())).toList();
    }

}
