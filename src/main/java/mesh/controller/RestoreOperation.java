package mesh.controller;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.model.BackupVolume;
import mesh.model.Conflict;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.model.BackupStep;
import mesh.wire.RestoreView;
import mesh.model.TakeStep;
import mesh.plan.Backup;
import mesh.plan.Operation;
import mesh.plan.Operation.Done;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Outcome;
import mesh.plan.Operation.Reason;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import mesh.plan.TakeWords;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.store.TakeRecords;
import mesh.wire.BackupProgress;
import mesh.wire.BackupRestoreRequest;

/**
 * RestoreOperation is a restore as the {@link OperationRunner} carries it out (docs/backup.md, "Restore"): a take whose
 * data comes from a backup ({@link Take#restoring}), decided by the take's own plan ({@link TakePlan}), found by its
 * number, its record beside the backups ({@link BackupRecords}). Its start, switch, push and a rollback's stop-target
 * and delete-copy are the take's handlers ({@link TakeSteps}), its fence and old copy the take's agent calls; its own are
 * the preflight, the lose (the source does not answer: its copy is marked lost, and {@link BackupWatch} fences it when
 * it answers again), the restore in place of the copy (the target writes the backup; its progress is the agent's line)
 * and the unfence, which lifts a lost mark where a take's lifts a fence.
 */
final class RestoreOperation implements OperationRunner.Kind<Long, Take, BackupProgress> {

    private final MeshStore store;
    private final AuditTrail audit;
    private final AgentClient agents;
    private final TakeAgents calls;
    private final Map<Enum<?>, OperationRunner.Step<Take, mesh.wire.CopyProgress>> takeSteps;

    RestoreOperation(MeshStore store, AuditTrail audit, AgentClient agents, TakeSteps takeSteps) {
        this.store = store;
        this.audit = audit;
        this.agents = agents;
        this.calls = new TakeAgents(agents);
        this.takeSteps = takeSteps.handlers();
    }

    /** The backup a restore brings back: the one named (of this module, done, kept), or the newest done one. */
    static Backup chosen(java.sql.Connection c, String module, Long id) throws java.sql.SQLException {
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

    /** {@code mesh restore --dry-run}: the target answers; the steps the restore would carry out. */
    RestoreView dryRun(Take r, List<String> images) {
        agents.status(node(r.to()));
        boolean sourceAnswers = r.from() != null && agents.answers(node(r.from()));
        List<String> steps = new java.util.ArrayList<>();
        steps.add("preflight: " + r.to() + " answers and has (or pulls) the images " + String.join(", ", images));
        steps.addAll(TakeWords.restoreAhead(r, sourceAnswers));
        return new RestoreView(0, r.module(), r.fromBackup().backup(), r.from(), r.to(), 0, r.from() != null && !sourceAnswers,
                r.step(), mesh.model.OperationState.DRY_RUN, volumes(r), null, null, null, steps);
    }

    /** A restore's volumes as its view and the agent's restore request say them. */
    static List<BackupVolume> volumes(Take r) {
        return r.volumes().stream().map(Take.Volume::asBackup).toList();
    }

    @Override
    public String name() {
        return "restore";
    }

    @Override
    public Operation.Plan<Take> plan() {
        return TakePlan.PLAN;
    }

    @Override
    public Optional<Take> load(Long id) {
        return store.inTransaction(c -> BackupRecords.restore(c, id)).map(BackupRecords.RestoreRow::restore);
    }

    @Override
    public void save(Take r, Take next) {
        store.inTransaction(c -> {
            BackupRecords.save(c, next);
            if (next.step().ended()) {
                audit.record(c, "restore", "module " + r.module() + ": restore " + r.fromBackup().restore() + " of backup "
                        + r.fromBackup().backup() + " to " + r.to() + " " + next.step().word()
                        + (next.error() == null ? "" : ": " + next.error()));
            }
            return null;
        });
    }

    @Override
    public Map<Enum<?>, OperationRunner.Step<Take, BackupProgress>> steps() {
        Map<Enum<?>, OperationRunner.Step<Take, BackupProgress>> h = new java.util.HashMap<>();
        h.put(TakeStep.PREFLIGHT, (r, p) -> preflight(r));
        h.put(TakeStep.FENCE, (r, p) -> {
            calls.fence(node(r.from()), r.module(), r.epoch());
            return new Done();
        });
        h.put(TakeStep.LOSE, (r, p) -> lose(r));
        h.put(TakeStep.RESTORE, this::restore);
        for (TakeStep s : List.of(TakeStep.START, TakeStep.SWITCH, TakeStep.PUSH, TakeStep.STOP_TARGET, TakeStep.DELETE_COPY)) {
            h.put(s, (r, p) -> takeSteps.get(s).carryOut(r, line -> { }));
        }
        h.put(TakeStep.OLD_COPY, (r, p) -> oldCopy(r));
        h.put(TakeStep.UNFENCE, (r, p) -> unfence(r));
        return h;
    }

    /**
     * The target answers and has (or pulls) the module's images, and the backup's registry answers (before the source's
     * copy could be marked lost: the mesh's own registry is lost with a lost seat, docs/seat.md); whether the source
     * answers (else its copy is lost).
     */
    private Outcome preflight(Take r) {
        Node target = node(r.to());
        agents.status(target);
        long backup = r.fromBackup().backup();
        String registry = store.inTransaction(c -> BackupRecords.byId(c, backup)).map(x -> x.backup().registry()).orElse(null);
        try {
            if (registry != null) {
                new mesh.bundle.HttpRegistry(registry).ping();
            }
        } catch (mesh.bundle.BundleFailure e) {
            return new Failed(Reason.UNREACHABLE, "backup " + backup + " is in a registry that does not answer: " + e.detail()
                    + BackupOperation.ownRegistry(store, registry) + "; nothing was changed");
        }
        List<String> images = images(store.inTransaction(c -> store.module(c, r.module())).map(MeshStore.StoredModule::manifest)
                .orElseThrow(() -> new Conflict("module " + r.module() + " is no longer in the catalogue")));
        List<mesh.wire.ImagesAnswer.Missing> missing = images.isEmpty() ? List.of() : calls.images(target, images);
        if (!missing.isEmpty()) {
            return new Failed(Reason.REFUSED, "node " + r.to() + " lacks " + String.join("; ", missing.stream()
                    .map(x -> "image " + x.image() + " (" + x.why() + ")").toList()) + "; nothing was changed");
        }
        return new TakePlan.SourceAnswers(r.from() != null && agents.answers(node(r.from())));
    }

    static List<String> images(Manifest m) {
        return m.components().values().stream().map(Manifest.Component::image).filter(java.util.Objects::nonNull)
                .distinct().sorted().toList();
    }

    private Outcome lose(Take r) {
        store.inTransaction(c -> {
            BackupRecords.lose(c, r.module(), r.from(), r.epoch(), volumes(r));
            audit.record(c, "restore", "module " + r.module() + ": node " + r.from() + " does not answer; its copy is"
                    + " marked lost, and is fenced there when its agent answers again");
            return null;
        });
        return new Done();
    }

    private Outcome restore(Take r, java.util.function.Consumer<BackupProgress> progress) {
        long id = r.fromBackup().backup();
        Backup b = store.inTransaction(c -> BackupRecords.byId(c, id)).map(BackupRecords.Row::backup)
                .orElseThrow(() -> new Conflict("backup " + id + " is no longer recorded"));
        BackupProgress last = new BackupAgents(agents).restore(node(r.to()), r.module(), new BackupRestoreRequest(r.epoch(),
                b.registry(), b.repository(), b.manifest(), volumes(r)), progress);
        if (!Boolean.TRUE.equals(last.done())) {
            return new Failed(Reason.FAILED, last.error() == null ? "the restore failed" : last.error());
        }
        return new TakePlan.Restored(last.volumes().stream().map(Take.Volume::of).toList());
    }

    private Outcome oldCopy(Take r) {
        List<String> names = r.volumes().stream().map(Take.Volume::name).toList();
        if (!r.lost()) {
            calls.oldCopy(node(r.from()), r.module(), r.epoch(), names);
        }
        store.inTransaction(c -> {
            TakeRecords.recordOldCopy(c, r.module(), r.from(), r.epoch(), names);
            TakeRecords.forget(c, r.module(), r.to(), 0);
            return null;
        });
        return new Done();
    }

    /** Lifts what this restore set on the source: its lost mark, or its fence; and the target's fence a rollback set. */
    private Outcome unfence(Take r) {
        if (TakePlan.targetFenced(r)) {
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
        return new Done();
    }

    /** Whether node {@code name}'s agent answers now (a status within the agents' short deadline). */
    boolean answers(String name) {
        return agents.answers(node(name));
    }

    Node node(String name) {
        return store.inTransaction(c -> store.node(c, name)).orElseThrow(() -> new Conflict("node " + name + " is no longer a node"));
    }
}
