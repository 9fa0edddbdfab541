package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import mesh.bundle.BundleFailure;
import mesh.bundle.Digest;
import mesh.bundle.HttpRegistry;
import mesh.model.Conflict;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.plan.Backup;
import mesh.plan.BackupPlan;
import mesh.plan.BackupRetention;
import mesh.model.BackupStep;
import mesh.plan.MeshPlanner;
import mesh.plan.TakeStart;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.store.TakeRecords;
import mesh.wire.BackupCommand;
import mesh.wire.BackupProgress;
import mesh.wire.BackupPushRequest;
import mesh.wire.BackupVerifyRequest;
import mesh.wire.BackupView;
import mesh.model.BackupVolume;
import org.jboss.logging.Logger;

/**
 * MeshBackup is {@code mesh backup} (docs/backup.md): it checks the request, records the backup and carries it out
 * step by step on a thread of its own ({@link BackupPlan} decides, this acts), recording each step's result before the
 * next, so a backup a killed controller left is carried on by the next one ({@link #resumeAll}). The module's volumes go
 * from its node's agent to the registry; the controller reads progress lines and records totals. It also verifies a
 * backup (on an agent, which fetches every blob) and removes backups beyond the module's {@code keep}.
 */
@ApplicationScoped
public class MeshBackup {

    private static final Logger LOG = Logger.getLogger("mesh.controller");
    /** How long between two tries of a step that must go through (the unfence: the module waits stopped meanwhile). */
    static final Duration BETWEEN_TRIES = Duration.ofSeconds(3);
    /** The repository of a module's backups in the registry. */
    static final String REPOSITORY = "mesh-backup/";

    @Inject
    MeshStore store;

    @Inject
    AuditTrail audit;

    @Inject
    AgentClient agents;

    private final Set<Long> active = ConcurrentHashMap.newKeySet();
    private final Map<Long, BackupProgress> progress = new ConcurrentHashMap<>();

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
            if (TakeRecords.running(c, module).isPresent()) {
                throw new Conflict("a take of module " + module + " is under way; back it up after it ends");
            }
            if (BackupRecords.runningRestore(c, module).isPresent()) {
                throw new Conflict("a restore of module " + module + " is under way; back it up after it ends");
            }
            BackupRecords.list(c, module, false).stream().filter(r -> !r.backup().step().ended()).findFirst().ifPresent(r -> {
                throw new Conflict("backup " + r.backup().id() + " of module " + module + " is under way (step "
                        + r.backup().step().word() + "); 'mesh backup list " + module + "' shows it");
            });
            List<BackupVolume> volumes = volumes(m);
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
        runInBackground(b.id());
        return view(b.id());
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

    private boolean runInBackground(long id) {
        if (!active.add(id)) {
            return false;
        }
        Thread.ofVirtual().name("backup-" + id).start(() -> {
            try {
                run(id);
            } catch (RuntimeException e) {
                LOG.errorf("backup %d: %s; the controller's next start carries it on", id, e.getMessage());
            } finally {
                active.remove(id);
                progress.remove(id);
            }
        });
        return true;
    }

    private void run(long id) {
        while (true) {
            Backup b = store.inTransaction(c -> BackupRecords.byId(c, id)).map(BackupRecords.Row::backup).orElse(null);
            if (b == null || b.step().ended()) {
                return;
            }
            LOG.infof("backup %d of %s: %s", id, b.module(), BackupPlan.describe(b));
            BackupPlan.Outcome found = carryOut(b);
            progress.remove(id);
            Backup next = BackupPlan.after(b, found);
            store.inTransaction(c -> {
                BackupRecords.save(c, next);
                if (next.step().ended()) {
                    audit.record(c, "backup", ended(next));
                }
                return null;
            });
            if (next.step() == b.step() && next.problem() != null) {
                LOG.warnf("backup %d of %s: %s", id, b.module(), next.problem());
                TakeSteps.sleep(BETWEEN_TRIES);
            }
        }
    }

    static String ended(Backup b) {
        return "module " + b.module() + ": backup " + b.id() + (b.step() == BackupStep.DONE ? " done: " + mesh.plan.Bytes.human(b.bytes())
                + " in " + b.files() + " files, " + mesh.plan.Bytes.human(b.sent()) + " sent" : " failed: " + b.error());
    }

    private BackupPlan.Outcome carryOut(Backup b) {
        try {
            Node node = node(b.node());
            TakeAgents calls = new TakeAgents(agents);
            return switch (b.step()) {
                case FENCE -> {
                    registryAnswers(b);   // before the module stops: a registry that is down costs no downtime
                    calls.fence(node, b.module(), b.epoch());
                    yield new BackupPlan.Done();
                }
                case COPY -> copy(b, node);
                case UNFENCE -> {
                    try {
                        calls.unfence(node, b.module(), b.epoch());
                    } catch (AgentClient.Unreachable e) {
                        if (e.reason() != mesh.wire.Reason.NEWER_EPOCH) {
                            throw e;
                        }
                        // a newer take holds the module there now: this backup's fence is no longer its to lift
                    }
                    try {
                        agents.statusRefreshed(node);   // a pass now, which starts the module, not at the next interval
                    } catch (AgentClient.Unreachable e) {
                        // the agent's own pass starts it
                    }
                    yield new BackupPlan.Done();
                }
                case RETAIN -> retain(b);
                case DONE, FAILED -> new BackupPlan.Done();
            };
        } catch (RuntimeException e) {
            return new BackupPlan.Failed(e.getMessage() == null ? "it failed without saying why" : e.getMessage());
        }
    }

    /** Fails, naming the registry, when it does not answer: asked before a fenced backup stops its module. */
    private static void registryAnswers(Backup b) {
        try {
            new HttpRegistry(b.registry()).ping();
        } catch (BundleFailure e) {
            throw new Conflict(e.detail() + "; module " + b.module() + " was not stopped");
        }
    }

    private BackupPlan.Outcome copy(Backup b, Node node) {
        Manifest m = store.inTransaction(c -> store.module(c, b.module())).map(MeshStore.StoredModule::manifest)
                .orElseThrow(() -> new Conflict("module " + b.module() + " is no longer in the catalogue"));
        List<BackupCommand> commands = b.live() ? m.backupCommands().entrySet().stream()
                .map(e -> new BackupCommand(e.getKey(), e.getValue())).toList() : List.of();
        BackupProgress last = new BackupAgents(agents).backup(node, b.module(), new BackupPushRequest(b.epoch(), b.live(),
                b.registry(), b.repository(), b.tag(), b.volumes(), commands), line -> progress.put(b.id(), line));
        if (!Boolean.TRUE.equals(last.done())) {
            return new BackupPlan.Failed(last.error() == null ? "the copy failed" : last.error());
        }
        return new BackupPlan.Copied(last.manifest(), n(last.bytes()), n(last.files()), n(last.sent()), last.volumes());
    }

    private static long n(Long v) {
        return v == null ? 0 : v;
    }

    /** Removes the module's done backups beyond its {@code keep}: the registry's manifest deleted, the record marked. */
    private BackupPlan.Outcome retain(Backup b) {
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
                return new BackupPlan.Failed("backup " + id + " could not be removed from the registry: " + e.detail());
            }
            store.inTransaction(c -> {
                BackupRecords.removed(c, id);
                audit.record(c, "backup", "module " + b.module() + ": backup " + id + " removed (keep " + f.keep() + ")");
                return null;
            });
        }
        return kept == null ? new BackupPlan.Done() : new BackupPlan.Failed(kept);
    }

    private Node node(String name) {
        return store.inTransaction(c -> store.node(c, name)).orElseThrow(() -> new Conflict("node " + name + " is no longer a node"));
    }

    /** Carries on every backup a dead runner left (a controller's start). */
    public void resumeAll() {
        store.inTransaction(BackupRecords::running).forEach(r -> {
            if (runInBackground(r.backup().id())) {
                LOG.infof("carrying on backup %d of %s at step %s", r.backup().id(), r.backup().module(), r.backup().step().word());
            }
        });
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
                progress.get(b.id()));
    }

    static String text(java.time.Instant t) {
        return t == null ? null : t.toString();
    }

    /**
     * Verifies backup {@code id}: an agent fetches every blob and checks it against the backup's manifest (the module's
     * node if it answers, else the first node that does). The answer is recorded with the backup.
     */
    public BackupView verify(long id) {
        BackupRecords.Row r = store.inTransaction(c -> BackupRecords.byId(c, id))
                .orElseThrow(() -> new NotFound("no backup " + id + "; 'mesh backup list' shows the backups"));
        Backup b = r.backup();
        if (b.step() != BackupStep.DONE || b.manifest() == null) {
            throw new Conflict("backup " + id + " of module " + b.module() + " is " + b.step().state() + ": only a backup that is"
                    + " done can be verified");
        }
        Node on = verifier(b.node());
        BackupProgress last;
        try {
            last = new BackupAgents(agents).verify(on, new BackupVerifyRequest(b.registry(), b.repository(), b.manifest()), l -> { });
        } catch (AgentClient.Unreachable e) {
            throw new Conflict("backup " + id + " could not be verified: " + e.getMessage());
        }
        String error = Boolean.TRUE.equals(last.done()) ? null : last.error() == null ? "the verify failed" : last.error();
        store.inTransaction(c -> {
            BackupRecords.verified(c, id, error);
            audit.record(c, "backup verify", "module " + b.module() + ": backup " + id + (error == null ? " verified: every file"
                    + " matches its manifest" : " does not verify: " + error));
            return null;
        });
        return view(id);
    }

    private Node verifier(String preferred) {
        List<Node> nodes = store.inTransaction(store::nodes);
        nodes = new java.util.ArrayList<>(nodes);
        nodes.sort(java.util.Comparator.comparing((Node n) -> !n.name().equals(preferred)).thenComparing(Node::name));
        for (Node n : nodes) {
            try {
                agents.statusQuickly(n);
                return n;
            } catch (AgentClient.Unreachable e) {
                // the next node
            }
        }
        throw new Conflict("no node's agent answers: a backup is verified by an agent, which fetches it from the registry");
    }

    /** Whether a backup of the module runs now in this controller or is recorded as running. */
    boolean running(Connection c, String module) throws SQLException {
        return BackupRecords.list(c, module, false).stream().anyMatch(r -> !r.backup().step().ended());
    }
}
