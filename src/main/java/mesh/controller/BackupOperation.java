package mesh.controller;

import mesh.wire.CallFailure;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.bundle.BundleFailure;
import mesh.bundle.Digest;
import mesh.bundle.HttpRegistry;
import mesh.model.BackupStep;
import mesh.model.Conflict;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.model.BackupVolume;
import mesh.plan.MeshPlanner;
import mesh.plan.TakeStart;
import mesh.plan.Backup;
import mesh.plan.BackupPlan;
import mesh.plan.BackupRetention;
import mesh.plan.Operation;
import mesh.plan.Operation.Done;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Outcome;
import mesh.plan.Operation.Reason;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.wire.BackupCommand;
import mesh.wire.BackupProgress;
import mesh.wire.BackupPushRequest;

/**
 * BackupOperation is a backup as the {@link OperationRunner} carries it out (docs/backup.md): found by its number, its
 * record in the store's backups ({@link BackupRecords}), decided by {@link BackupPlan}, and one handler a step: the
 * fence (after the registry answered: a registry that is down costs no downtime), the copy from the module's node's
 * agent to the registry, the unfence, and the retention of the module's {@code keep}. Its progress is the agent's line.
 */
final class BackupOperation implements OperationRunner.Kind<Long, Backup, BackupProgress> {

    private final MeshStore store;
    private final AuditTrail audit;
    private final AgentClient agents;
    private final TakeAgents calls;

    BackupOperation(MeshStore store, AuditTrail audit, AgentClient agents) {
        this.store = store;
        this.audit = audit;
        this.agents = agents;
        this.calls = new TakeAgents(agents);
    }

    /** The volumes a backup of {@code m} holds: those its {@code backup.volumes} names, else all of them. */
    static List<BackupVolume> volumes(Manifest m) {
        List<String> chosen = m.backupOrDefault().volumes();
        return TakeStart.volumes(m).stream().filter(v -> chosen.isEmpty() || chosen.contains(v.name()))
                .map(v -> new BackupVolume(v.name(), v.kind())).toList();
    }

    /** Where a module's backups go: its manifest's registry, else the mesh's own; refused when there is none. */
    static String registry(Manifest m, List<Node> nodes, List<Placement> placements) {
        if (m.backupOrDefault().registry() != null) {
            return m.backupOrDefault().registry().replaceAll("/+$", "");
        }
        String url = MeshPlanner.registryUrl(nodes, placements);
        if (url == null) {
            throw new Conflict("the mesh has no registry to back module " + m.module() + " up to: module mesh-registry runs"
                    + " nowhere (or give the module's backup a registry: URL)");
        }
        return url;
    }

    @Override
    public String name() {
        return "backup";
    }

    @Override
    public Operation.Plan<Backup> plan() {
        return BackupPlan.PLAN;
    }

    @Override
    public Optional<Backup> load(Long id) {
        return store.inTransaction(c -> BackupRecords.byId(c, id)).map(BackupRecords.Row::backup);
    }

    @Override
    public void save(Backup before, Backup next) {
        store.inTransaction(c -> {
            BackupRecords.save(c, next);
            if (next.step().ended()) {
                audit.record(c, "backup", ended(next));
            }
            return null;
        });
    }

    static String ended(Backup b) {
        return "module " + b.module() + ": backup " + b.id() + (b.step() == BackupStep.DONE ? " done: " + mesh.plan.Bytes.human(b.bytes())
                + " in " + b.files() + " files, " + mesh.plan.Bytes.human(b.sent()) + " sent" : " failed: " + b.error());
    }

    @Override
    public Map<Enum<?>, OperationRunner.Step<Backup, BackupProgress>> steps() {
        return Map.of(BackupStep.FENCE, (b, p) -> fence(b), BackupStep.COPY, this::copy, BackupStep.UNFENCE, (b, p) -> unfence(b),
                BackupStep.RETAIN, (b, p) -> retain(b));
    }

    private Outcome fence(Backup b) {
        Node node = node(b.node());
        try {
            new HttpRegistry(b.registry()).ping();   // before the module stops: a registry that is down costs no downtime
        } catch (BundleFailure e) {
            return new Failed(Reason.UNREACHABLE, e.detail() + ownRegistry(store, b.registry()) + "; module " + b.module() + " was not stopped");
        }
        calls.fence(node, b.module(), b.epoch());
        return new Done();
    }

    /**
     * When {@code registry} is the mesh's own ({@code mesh-registry}, on the seat unless taken elsewhere), the words that
     * say where it runs and what to do: a lost seat takes it along (docs/seat.md), and no backup reaches it until the
     * node is back; a module whose manifest names a registry on another node is backed up all the same.
     */
    static String ownRegistry(MeshStore store, String registry) {
        return store.inTransaction(c -> {
            List<Placement> placements = store.placements(c);
            if (!registry.equals(MeshPlanner.registryUrl(store.nodes(c), placements))) {
                return "";
            }
            String node = placements.stream().filter(p -> MeshPlanner.REGISTRY_MODULE.equals(p.module())).map(Placement::taken)
                    .findFirst().orElse("?");
            return " (the mesh's own registry, mesh-registry on " + node + ": while " + node + " does not answer, no backup reaches"
                    + " it and the backups in it are out of reach; give the module's manifest a backup registry on another node,"
                    + " 'backup: {registry: http://HOST:PORT}', or move mesh-registry with 'mesh take')";
        });
    }

    private Outcome unfence(Backup b) {
        Node node = node(b.node());
        try {
            calls.unfence(node, b.module(), b.epoch());
        } catch (CallFailure e) {
            if (e.reason() != mesh.wire.Reason.NEWER_EPOCH) {
                throw e;
            }
            // a newer take holds the module there now: this backup's fence is no longer its to lift
        }
        try {
            agents.statusRefreshed(node);   // a pass now, which starts the module, not at the next interval
        } catch (CallFailure e) {
            // the agent's own pass starts it
        }
        return new Done();
    }

    private Outcome copy(Backup b, java.util.function.Consumer<BackupProgress> progress) {
        Manifest m = store.inTransaction(c -> store.module(c, b.module())).map(MeshStore.StoredModule::manifest)
                .orElseThrow(() -> new Conflict("module " + b.module() + " is no longer in the catalogue"));
        List<BackupCommand> commands = b.live() ? m.backupCommands().entrySet().stream()
                .map(e -> new BackupCommand(e.getKey(), e.getValue())).toList() : List.of();
        BackupProgress last = new BackupAgents(agents).backup(node(b.node()), b.module(), new BackupPushRequest(b.epoch(), b.live(),
                b.registry(), b.repository(), b.tag(), b.volumes(), commands), progress);
        if (!Boolean.TRUE.equals(last.done())) {
            return new Failed(Reason.FAILED, last.error() == null ? "the copy failed" : last.error());
        }
        return new BackupPlan.Copied(last.manifest(), n(last.bytes()), n(last.files()), n(last.sent()), last.volumes());
    }

    private static long n(Long v) {
        return v == null ? 0 : v;
    }

    /** Removes the module's done backups beyond its {@code keep}: the registry's manifest deleted, the record marked. */
    private Outcome retain(Backup b) {
        record Found(List<BackupRecords.Row> rows, int keep) {
        }
        Found f = store.inTransaction(c -> new Found(BackupRecords.list(c, b.module(), false),
                store.module(c, b.module()).map(s -> s.manifest().backupOrDefault().kept()).orElse(Manifest.Backup.KEEP)));
        List<Long> expired = BackupRetention.expired(f.rows().stream().map(r -> new BackupRetention.Kept(r.backup().id(),
                r.backup().step() == BackupStep.DONE || r.backup().id() == b.id(), r.backup().step() == BackupStep.FAILED,
                r.startedAt())).toList(), f.keep());
        String kept = null;
        for (long id : expired) {
            Backup old = f.rows().stream().filter(r -> r.backup().id() == id).findFirst().orElseThrow().backup();
            try {
                Digest d = Digest.parse(old.manifest());
                if (d != null && !new HttpRegistry(old.registry()).deleteManifest(old.repository(), d)) {
                    kept = "the registry at " + old.registry() + " does not allow deletes: the removed backups' files stay in it"
                            + " (REGISTRY_STORAGE_DELETE_ENABLED=true, then its garbage-collect, frees them)";
                }
            } catch (BundleFailure e) {
                return new Failed(Reason.UNREACHABLE, "backup " + id + " could not be removed from the registry: " + e.detail());
            }
            store.inTransaction(c -> {
                BackupRecords.removed(c, id);
                audit.record(c, "backup", "module " + b.module() + ": backup " + id + " removed (keep " + f.keep() + ")");
                return null;
            });
        }
        return kept == null ? new Done() : new Failed(Reason.REFUSED, kept);
    }

    private Node node(String name) {
        return store.inTransaction(c -> store.node(c, name)).orElseThrow(() -> new Conflict("node " + name + " is no longer a node"));
    }
}
