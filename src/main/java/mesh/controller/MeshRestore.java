package mesh.controller;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import mesh.model.Conflict;
import mesh.model.Manifest;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.plan.Backup;
import mesh.model.BackupStep;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.store.TakeRecords;
import mesh.wire.BackupProgress;
import mesh.wire.RestoreView;

/**
 * MeshRestore is {@code mesh restore} (docs/backup.md, "Restore"): a take whose data comes from a backup. It checks the
 * request, records the restore and hands it to its {@link OperationRunner} ({@link RestoreOperation} acts,
 * {@link TakePlan} decides, as for every take).
 */
@ApplicationScoped
public class MeshRestore {

    @Inject MeshStore store;
    @Inject MeshPush pushes;
    @Inject PushSender sender;
    @Inject MeshSecrets secrets;
    @Inject AuditTrail audit;
    @Inject AgentClient agents;

    private RestoreOperation operation;
    private OperationRunner<Long, Take, BackupProgress> runner;

    @PostConstruct
    void init() {
        operation = new RestoreOperation(store, audit, agents, new TakeSteps(store, pushes, sender, secrets, agents));
        runner = new OperationRunner<>(operation);
    }

    /** What a restore starts from: the module's manifest, placement and the backup. */
    private record Start(Take restore, Backup backup, List<String> images) {
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
            CordonGuard.refuse(c, "restore", module, target, false);
            Backup b = RestoreOperation.chosen(c, module, backupId);
            UnderWay.refuse(c, module, UnderWay.Verb.RESTORE);
            List<String> images = RestoreOperation.images(m);
            List<Take.Volume> volumes = b.volumes().stream().map(Take.Volume::of).toList();
            if (dryRun) {
                return new Start(Take.restore(0, module, b.id(), p.taken(), target, 0, volumes), b, images);
            }
            Take r = Take.restore(BackupRecords.nextRestoreId(c), module, b.id(), p.taken(), target, TakeRecords.nextEpoch(c),
                    volumes);
            BackupRecords.insert(c, r);
            audit.record(c, "restore", "module " + module + ": restore of backup " + b.id() + " to " + target + " begun, epoch "
                    + r.epoch() + (p.taken() == null ? " (it ran nowhere)" : " (it ran on " + p.taken() + ")"));
            return new Start(r, b, images);
        });
        if (dryRun) {
            return operation.dryRun(s.restore(), s.images());
        }
        long id = s.restore().fromBackup().restore();
        runner.start(id);
        return view(id);
    }

    /** Carries on every restore a dead runner left (a controller's start). */
    public void resumeAll() {
        runner.resume(store.inTransaction(BackupRecords::runningRestores).stream().map(BackupRecords.RestoreRow::id).toList());
    }

    public RestoreView view(long id) {
        BackupRecords.RestoreRow row = store.inTransaction(c -> BackupRecords.restore(c, id))
                .orElseThrow(() -> new NotFound("no restore " + id));
        Take r = row.restore();
        if (!runner.active(id) && !r.step().ended()) {
            runner.start(id);   // a restore whose runner let go or died: following it carries it on
        }
        return new RestoreView(id, r.module(), r.fromBackup().backup(), r.from(), r.to(), r.epoch(), r.lost(), r.step(),
                r.step().state(), RestoreOperation.volumes(r), r.error(), r.problem(), runner.progress(id), null);
    }

    /** The restores under way, for {@code mesh status}. */
    public List<RestoreView> running() {
        return store.inTransaction(BackupRecords::runningRestores).stream().map(r -> view(r.id())).toList();
    }

}
