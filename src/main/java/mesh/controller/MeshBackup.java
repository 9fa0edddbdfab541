package mesh.controller;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import mesh.model.Conflict;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.plan.Backup;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.store.TakeRecords;
import mesh.wire.BackupProgress;
import mesh.wire.BackupView;
import mesh.model.BackupVolume;

/**
 * MeshBackup is {@code mesh backup} (docs/backup.md): it checks the request, records the backup and hands it to its
 * {@link OperationRunner} ({@link BackupOperation} acts, {@link mesh.plan.BackupPlan} decides), so a backup a killed controller
 * left is carried on by the next one ({@link #resumeAll}). It also verifies a backup ({@link BackupVerify}).
 */
@ApplicationScoped
public class MeshBackup {

    static final String REPOSITORY = "mesh-backup/";   // the repository of a module's backups in the registry

    @Inject MeshStore store;
    @Inject AuditTrail audit;
    @Inject AgentClient agents;

    private OperationRunner<Long, Backup, BackupProgress> runner;

    @PostConstruct
    void init() {
        runner = new OperationRunner<>(new BackupOperation(store, audit, agents));
    }

    /** Begins a backup of {@code module} ({@code trigger}: operator or schedule); it runs on, {@link #view} follows it. */
    public BackupView begin(String module, String trigger) {
        Backup b = store.inTransaction(c -> {
            Manifest m = store.module(c, module).map(MeshStore.StoredModule::manifest).orElseThrow(() -> new NotFound(
                    "unknown module " + module + "; 'mesh catalogue list' shows the modules"));
            List<Placement> placements = store.placements(c);
            Placement p = placements.stream().filter(x -> x.module().equals(module)).findFirst().orElse(new Placement(module, null, null));
            if (p.taken() == null) {
                throw new Conflict("module " + module + " runs nowhere: there is no data to back up");
            }
            UnderWay.refuse(c, module, UnderWay.Verb.BACKUP);
            List<BackupVolume> volumes = BackupOperation.volumes(m);
            if (volumes.isEmpty()) {
                throw new Conflict("module " + module + " has no volume" + (m.backupOrDefault().volumes().isEmpty() ? "" : " of those its"
                        + " backup names") + ": there is no data to back up");
            }
            String registry = registry(m, store.nodes(c), placements);
            boolean live = !m.backupCommands().isEmpty();
            long id = BackupRecords.nextId(c);
            Backup start = Backup.start(id, module, p.taken(), registry, REPOSITORY + module, TakeRecords.nextEpoch(c), live, volumes);
            BackupRecords.insert(c, start, trigger);
            audit.record(c, "backup", "module " + module + ": backup " + id + " begun on " + p.taken() + (live
                    ? " with its backup commands, the module running" : ", the module stopped for the copy") + " (" + trigger + ")");
            return start;
        });
        runner.start(b.id());
        return view(b.id());
    }

    /** Where a module's backups go ({@link BackupOperation#registry}); the status's backups read it too. */
    static String registry(Manifest m, List<Node> nodes, List<Placement> placements) {
        return BackupOperation.registry(m, nodes, placements);
    }

    /** Carries on every backup a dead runner left (a controller's start), and one whose runner let go (the watch). */
    public void resumeAll() {
        runner.resume(store.inTransaction(BackupRecords::running).stream().map(r -> r.backup().id()).toList());
    }

    public BackupView view(long id) {
        return store.inTransaction(c -> BackupRecords.byId(c, id)).map(this::view)
                .orElseThrow(() -> new NotFound("no backup " + id + "; 'mesh backup list' shows the backups"));
    }

    public List<BackupView> list(String module) {
        return store.inTransaction(c -> {
            if (module != null && !store.hasModule(c, module) && BackupRecords.list(c, module, false).isEmpty()) {
                throw new NotFound("unknown module " + module + "; 'mesh catalogue list' shows the modules");
            }
            return BackupRecords.list(c, module, false);
        }).stream().map(this::view).toList();
    }

    BackupView view(BackupRecords.Row r) {
        Backup b = r.backup();
        return new BackupView(b.id(), b.module(), b.node(), r.trigger(), b.step(), b.step().state(), b.live(), b.registry(),
                b.repository(), b.tag(), b.manifest(), b.bytes(), b.files(), b.sent(), b.volumes(), text(r.startedAt()),
                text(r.endedAt()), text(r.verifiedAt()), r.verifyError(), b.error(), b.problem(), text(r.removedAt()),
                runner.progress(b.id()));
    }

    static String text(java.time.Instant t) {
        return t == null ? null : t.toString();
    }

    /** Verifies backup {@code id} ({@link BackupVerify}) and shows it with the answer. */
    public BackupView verify(long id) {
        new BackupVerify(store, agents, audit).verify(id);
        return view(id);
    }
}
