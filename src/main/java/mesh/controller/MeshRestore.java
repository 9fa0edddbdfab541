package mesh.controller;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import mesh.model.Conflict;
import mesh.model.NotFound;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import mesh.plan.TakeWords;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
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

    /**
     * Begins a restore of {@code module} from backup {@code backupId} (null: its newest that is done) onto {@code to}
     * (null: where it runs, refused); {@code down}: the node the operator says is down (null: none), the only node whose
     * copy the restore may mark lost. A restore away from a node that does not answer, not said down, is refused before
     * anything is recorded ({@link TakePlan#restorePreflighted} refuses it again should the node stop answering later).
     */
    public RestoreView begin(String module, Long backupId, String to, String down, boolean dryRun) {
        RestoreAsked s = store.inTransaction(c -> RestoreAsked.check(store, c, module, backupId, to, down, false));
        Take asked = s.restore();
        if (asked.from() != null && !asked.sourceSaidDown() && !operation.answers(asked.from())) {
            throw new Conflict(TakeWords.sourceUnanswered(asked));
        }
        if (dryRun) {
            return operation.dryRun(asked, s.images());
        }
        Take r = store.inTransaction(c -> {
            Take recorded = RestoreAsked.check(store, c, module, backupId, to, down, true).restore();
            BackupRecords.insert(c, recorded);
            audit.record(c, "restore", "module " + module + ": restore of backup " + recorded.fromBackup().backup() + " to "
                    + recorded.to() + " begun, epoch " + recorded.epoch() + (recorded.from() == null ? " (it ran nowhere)"
                    : " (it ran on " + recorded.from() + (recorded.sourceSaidDown() ? ", said down" : "") + ")"));
            return recorded;
        });
        long id = r.fromBackup().restore();
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
