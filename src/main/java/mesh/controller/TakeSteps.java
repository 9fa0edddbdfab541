package mesh.controller;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import mesh.model.ComponentSpec;
import mesh.model.ComponentState;
import mesh.model.Conflict;
import mesh.model.Declaration;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.model.Poll;
import mesh.model.TakeStep;
import mesh.model.VolumeManifest;
import mesh.plan.BundlePins;
import mesh.plan.EdgeFirst;
import mesh.plan.MeshPlan;
import mesh.plan.MeshPlanner;
import mesh.plan.Operation.Done;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Outcome;
import mesh.plan.Operation.Reason;
import mesh.plan.PushDecision;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import mesh.plan.TakePreflight;
import mesh.plan.TakeSends;
import mesh.plan.TakeStart;
import mesh.plan.TakeVerify;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.store.PushBusy;
import mesh.store.PushLock;
import mesh.store.TakeRecords;
import mesh.wire.Build;
import mesh.wire.CallFailure;
import mesh.wire.CopyProgress;
import mesh.wire.DiskView;
import mesh.wire.HostStatus;
import mesh.wire.PushReport;
import mesh.wire.VolumeCopyRequest;
import mesh.wire.VolumeView;
import mesh.wire.WireRule;
import org.jboss.logging.Logger;
import static mesh.wire.Reason.NOT_TAKES_COPY;

/**
 * TakeSteps carries out one step of a take against the agents and the store and says what it
 * found, as an {@link Outcome}; the {@link OperationRunner} records it ({@link TakeOperation}). Every step is idempotent, so a
 * runner that dies mid-step can do it again. No store transaction is open while an agent is asked.
 */
final class TakeSteps {

    private static final Logger LOG = Logger.getLogger("mesh.controller");

    /** How long a module may take to be healthy on the target. */
    static final Duration HEALTHY = Duration.ofMinutes(3);
    /** How long a step waits for a push in progress to end. */
    static final Duration PUSH_WAIT = Duration.ofMinutes(2);
    /** How long the push after a switch waits for the edges told first to load their new routes. */
    static final Duration EDGE_FIRST = Duration.ofSeconds(20);
    /** How long the push step waits for the nodes it sent to apply (the binders' replacement) before the take ends. */
    static final Duration PUSH_APPLIED = Duration.ofSeconds(60);

    /** How long the read of a switch in doubt waits for a switch transaction still holding the take's record. */
    static final Duration SWITCH_LOCK = Duration.ofSeconds(60);

    private final MeshStore store;
    private final MeshPush pushes;
    private final PushSender sender;
    /** Its own handle, not {@code pushes.secrets}: a field of an injected bean read through its client proxy is null. */
    private final MeshSecrets secrets;
    private final AgentClient agents;
    private final TakeAgents calls;

    TakeSteps(MeshStore store, MeshPush pushes, PushSender sender, MeshSecrets secrets, AgentClient agents) {
        this.store = store;
        this.pushes = pushes;
        this.sender = sender;
        this.secrets = secrets;
        this.agents = agents;
        this.calls = new TakeAgents(agents);
    }

    /** Nodes, the module and its placement as the store holds them now. */
    record Where(Map<String, Node> nodes, Manifest manifest, Placement placement) {
        Node node(String name) {
            Node n = nodes.get(name);
            if (n == null) {
                throw new Conflict("node " + name + " is no longer a node");
            }
            return n;
        }
    }

    Where where(String module) {
        return store.inTransaction(c -> {
            Map<String, Node> nodes = new TreeMap<>();
            store.nodes(c).forEach(n -> nodes.put(n.name(), n));
            Manifest m = store.module(c, module).map(MeshStore.StoredModule::manifest)
                    .orElseThrow(() -> new Conflict("module " + module + " is no longer in the catalogue"));
            Placement p = store.placement(c, module);
            return new Where(nodes, m, p);
        });
    }

    /**
     * The take's step handlers, one a step ({@link OperationRunner.Step}); {@code progress} hears the copy's lines.
     * A handler that throws fails its step with the exception's reason ({@link OperationRunner#failure}).
     */
    Map<Enum<?>, OperationRunner.Step<Take, CopyProgress>> handlers() {
        Map<Enum<?>, OperationRunner.Step<Take, CopyProgress>> h = new HashMap<>();
        h.put(TakeStep.PREFLIGHT, (t, p) -> preflight(t, where(t.module())));
        h.put(TakeStep.FENCE, (t, p) -> fence(t, where(t.module())));
        h.put(TakeStep.TICKET, (t, p) -> new TakePlan.Ticketed(calls.ticket(where(t.module()).node(t.from()), t.module(), t.epoch())));
        h.put(TakeStep.PRE_COPY, (t, p) -> preCopy(t, where(t.module()), p));
        h.put(TakeStep.COPY, (t, p) -> copy(t, where(t.module()), p));
        h.put(TakeStep.VERIFY, (t, p) -> verify(t, where(t.module())));
        h.put(TakeStep.START, (t, p) -> start(t, where(t.module())));
        h.put(TakeStep.SWITCH, (t, p) -> TakePlan.switchInDoubt(t) ? switchFound(t) : switchOver(t));
        h.put(TakeStep.PUSH, (t, p) -> push(t, where(t.module())));
        h.put(TakeStep.OLD_COPY, (t, p) -> oldCopy(t, where(t.module())));
        h.put(TakeStep.STOP_TARGET, (t, p) -> stopTarget(t, where(t.module())));
        h.put(TakeStep.DELETE_COPY, (t, p) -> deleteCopy(t, where(t.module())));
        h.put(TakeStep.UNFENCE, (t, p) -> unfence(t, where(t.module())));
        return h;
    }

    private Outcome fence(Take t, Where w) {
        // a platform thread: createOnTarget reads the store, and a virtual thread's JDBC socket read can miss its wake-up
        // in the native executable (oracle/graal#13787; OperationRunner's steps run on platform threads for it too)
        CompletableFuture<Void> created = CompletableFuture.runAsync(
                () -> createOnTarget(t, w), r -> Thread.ofPlatform().name("take-create-" + t.module()).daemon(true).start(r));
        warm(t, w);
        created.join();
        calls.fence(w.node(t.from()), t.module(), t.epoch());
        return new Done();
    }

    /**
     * Before the source's fence of a pre-copied take, beside the warm manifests: the target creates the module's
     * containers as the start declaration will have them, under a fence of its own, never started before the start
     * lifts it (docs/take.md, "The target's containers, created before the fence"); the start then only starts them.
     * An aid only: when it fails the start creates them, as before; a rollback's delete of the copy lifts that fence.
     */
    private void createOnTarget(Take t, Where w) {
        if (t.from() == null || t.volumes().stream().allMatch(v -> v.passes().isEmpty())) {
            return;
        }
        try {
            Node target = w.node(t.to());
            calls.createFenced(target, t.module(), t.epoch(), startDeclaration(t, target, store.pushSnapshot()));
        } catch (RuntimeException e) {
            LOG.infof("take %s: the containers were not created on %s before the fence (%s); the start creates them",
                    t.module(), t.to(), e.getMessage());
        }
    }

    /**
     * The target answers, has (or gets) the module's images and bundles and has room; the source's volumes
     * and their sizes. What is found is judged by {@link TakePreflight}, which names every problem at once.
     */
    Outcome preflight(Take t, Where w) {
        return preflight(t, w, true);
    }

    /**
     * As above; {@code fetch} false (a dry run) only reads: an image the target lacks is not pulled, and not
     * a failure, since the take would pull it; a bundle the target lacks is not fetched, and a failure only
     * when the artifact store does not have it either.
     */
    Outcome preflight(Take t, Where w, boolean fetch) {
        Node target = w.node(t.to());
        String wire = wireRefusal(t, w, agents.status(target));
        if (wire != null) {
            return new Failed(Reason.REFUSED, wire);
        }
        Map<String, String> missingImages = new TreeMap<>();
        List<String> images = w.manifest().components().values().stream().map(Manifest.Component::image)
                .filter(Objects::nonNull).distinct().sorted().toList();
        if (fetch && !images.isEmpty()) {
            calls.images(target, images).forEach(m -> missingImages.put(m.image(), m.why()));
        }
        Map<String, String> missingBundles = new TreeMap<>();
        if (w.manifest().components().values().stream().anyMatch(c -> c.bundle() != null)) {
            // pinned as the start step will pin them, from the store's artifact store: what the target must run
            MeshStore.PushSnapshot s = store.pushSnapshot();
            List<Placement> taken = TakeStart.asTaken(s.placements(), t.module(), t.to());
            List<ComponentSpec> processes = plan(s, taken, taken).nodes().getOrDefault(t.to(), List.of()).stream()
                    .filter(c -> c.module().equals(t.module()) && c.process()).toList();
            List<String> bundles = processes.stream().map(ComponentSpec::bundle).distinct().sorted().toList();
            String registry = MeshPlanner.registryUrl(s.nodes(), taken);
            calls.bundles(target, bundles, registry, fetch).forEach(m -> missingBundles.put(m.bundle(), m.why()));
        }
        List<Take.Volume> volumes = new ArrayList<>();
        long free = -1;
        String freePath = null;
        if (t.from() != null) {
            Node source = w.node(t.from());
            List<Take.Volume> declared = TakeStart.volumes(w.manifest());
            for (String kind : declared.stream().map(Take.Volume::kind).distinct().toList()) {
                List<VolumeView> there = calls.volumes(source, t.module(), kind);
                for (Take.Volume v : declared) {
                    there.stream().filter(x -> x.volume().equals(v.name()) && v.kind().equals(kind)).findFirst()
                            .ifPresent(x -> volumes.add(new Take.Volume(v.name(), kind, x.bytes(), x.files(), false, null, null)));
                }
            }
            if (TakePreflight.need(volumes) > 0) {
                DiskView d = calls.disk(target);
                free = d.free();
                freePath = d.path();
            }
        }
        String refusal = TakePreflight.refusal(new TakePreflight.Facts(t.module(), t.from(), t.to(), missingImages,
                missingBundles, volumes, free, freePath));
        return refusal != null ? new Failed(Reason.REFUSED, refusal) : new TakePlan.Preflighted(t.from() == null ? List.of() : volumes);
    }

    /**
     * Why this controller cannot carry the take out, its build outside the wire rule with the target's agent or the
     * source's ({@link mesh.wire.WireRule}): checked before anything is stopped or sent; null when both speak.
     */
    private String wireRefusal(Take t, Where w, HostStatus target) {
        Build self = Build.current();
        String notDone = "so the take of " + t.module() + " was not started";
        Optional<String> why = WireRule.refusal(t.to(), self, WireRule.reported(target.build()), notDone);
        if (why.isEmpty() && t.from() != null) {
            why = WireRule.refusal(t.from(), self,
                    WireRule.reported(agents.status(w.node(t.from())).build()), notDone);
        }
        return why.orElse(null);
    }

    /**
     * One pass of the pre-copy for one volume, the module running on the source: a pre-copy ticket (each pass asks
     * for one: a ticket is no record the take keeps), then the target copies the whole volume (pass 1) or what
     * changed since the pass before, agent to agent.
     */
    private Outcome preCopy(Take t, Where w, Consumer<CopyProgress> progress) {
        int n = TakePlan.preCopyPass(t);
        Take.Volume v = t.nextToPreCopy(n);
        Node source = w.node(t.from());
        String ticket = calls.liveTicket(source, t.module(), t.epoch());
        long began = System.nanoTime();
        CopyProgress last = calls.copy(w.node(t.to()), t.module(), v.name(), new VolumeCopyRequest(t.epoch(),
                v.kind(), source.agent(), ticket, true, n > 1, v.since()), progress);
        if (!Boolean.TRUE.equals(last.done())) {
            return new Failed(Reason.FAILED, "volume " + v.name() + " (pass " + n + "): "
                    + (last.error() == null ? "the copy failed" : last.error()));
        }
        return new TakePlan.PreCopied(v.name(), pass(true, last, began));
    }

    private static Take.Pass pass(boolean live, CopyProgress last, long began) {
        return new Take.Pass(live, last.bytes() == null ? 0 : last.bytes(), last.files() == null ? 0 : last.files(),
                last.deleted() == null ? 0 : last.deleted(), last.seconds() != null ? last.seconds()
                        : (System.nanoTime() - began) / 1e9, last.since() == null ? 0 : last.since());
    }

    /**
     * The copy after the fence: a volume the pre-copy copied gets only what changed since its last pass (the
     * delta); one it did not (a take recorded before pre-copies) is copied whole, as before.
     */
    private Outcome copy(Take t, Where w, Consumer<CopyProgress> progress) {
        Take.Volume v = t.nextToCopy();
        Node source = w.node(t.from());
        boolean delta = v.livePasses() > 0;
        long began = System.nanoTime();
        CopyProgress last = calls.copy(w.node(t.to()), t.module(), v.name(), delta
                ? new VolumeCopyRequest(t.epoch(), v.kind(), source.agent(), t.ticket(), false, true, v.since())
                : new VolumeCopyRequest(t.epoch(), v.kind(), source.agent(), t.ticket()), progress);
        if (!Boolean.TRUE.equals(last.done())) {
            return new Failed(Reason.FAILED, "volume " + v.name() + ": " + (last.error() == null ? "the copy failed" : last.error()));
        }
        return new TakePlan.Copied(v.name(), last.bytes() == null ? 0 : last.bytes(), last.files() == null ? 0 : last.files(),
                delta ? pass(false, last, began) : null);
    }

    /**
     * After a pre-copy, before the fence: both sides make each volume's manifest once while the module still runs, so
     * each agent keeps the hashes of the files unchanged since ({@code mesh.host.take.HashCache}) and the verify after
     * the fence reads again only what was written since: the downtime does not grow with the data. Only reads, and
     * only an aid: a manifest that fails here (a file gone while it was scanned) costs the verify time, nothing else.
     */
    private void warm(Take t, Where w) {
        if (t.volumes().stream().allMatch(v -> v.passes().isEmpty())) {
            return;
        }
        for (Take.Volume v : t.volumes()) {
            CompletableFuture<Void> source = CompletableFuture.runAsync(
                    () -> quietly(() -> calls.manifest(w.node(t.from()), t.module(), v.name(), v.kind(), true)),
                    r -> Thread.ofVirtual().start(r));
            quietly(() -> calls.manifest(w.node(t.to()), t.module(), v.name(), v.kind(), true));
            source.join();
        }
    }

    private static void quietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            // an aid only: the verify after the fence hashes what it could not keep
        }
    }

    private Outcome verify(Take t, Where w) {
        List<Take.Volume> checked = new ArrayList<>();
        String difference = null;
        for (Take.Volume v : t.volumes()) {
            // both sides hash at once: the verify is most of a pre-copied take's downtime
            CompletableFuture<VolumeManifest> source = CompletableFuture.supplyAsync(
                    () -> calls.manifest(w.node(t.from()), t.module(), v.name(), v.kind()), r -> Thread.ofVirtual().start(r));
            VolumeManifest there = calls.manifest(w.node(t.to()), t.module(), v.name(), v.kind());
            VolumeManifest here;
            try {
                here = source.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
            checked.add(v.withDigests(here.digest(), there.digest()));
            if (difference == null) {
                difference = TakeVerify.difference(here, there);
            }
        }
        return new TakePlan.Verified(checked, difference);
    }

    /**
     * Sends the target the start declaration ({@link TakeStart}), under the push lock and recorded as a push records
     * it, then lifts its fence (the one it created the module's containers under before the source's fence, or any an
     * earlier take left there): the declaration first, so the pass the lift wakes starts the created containers rather
     * than removing them as undeclared. Then waits until the module's components run there.
     */
    private Outcome start(Take t, Where w) {
        Node target = w.node(t.to());
        long generation;
        try (PushLock lock = pushLock()) {
            generation = sender.sendForTake(t, TakeSends.start(target, startDeclaration(t, target, store.pushSnapshot())))
                    .generation();
        }
        calls.unfence(target, t.module(), t.epoch());
        return awaitRunning(t, target, generation);
    }

    /**
     * The declaration the take's target starts the module with ({@link TakeStart#declaration}), from {@code s}: the
     * placements as they run while the module starts, and as they will be once it is taken; the one the start sends and
     * the one the target creates the containers from before the fence are the same.
     */
    private Declaration startDeclaration(Take t, Node target, MeshStore.PushSnapshot s) {
        List<Placement> running = TakeStart.whileStarting(s.placements(), startingNow(), t.module());
        List<Placement> taken = TakeStart.asTaken(running, t.module(), t.to());
        long last = s.sent().stream().filter(x -> x.node().name().equals(t.to())).mapToLong(PushDecision.Sent::lastGeneration)
                .findFirst().orElse(0);
        return TakeStart.declaration(plan(s, running, taken), plan(s, taken, taken), t.module(), target, last);
    }

    /** The takes and restores under way, for the placements the nodes run while some of them start ({@link TakeStart#whileStarting}). */
    private List<Take> startingNow() {
        return store.inTransaction(TakeRecords::runningWithRestores);
    }

    private MeshPlan plan(MeshStore.PushSnapshot s, List<Placement> placements, List<Placement> resolveFor) {
        BundlePins pins = BundleResolver.resolve(s.catalogue(), resolveFor, MeshPlanner.registryUrl(s.nodes(), resolveFor));
        return MeshPlanner.plan(s.catalogue(), s.nodes(), placements, pins, secrets.values());
    }

    private PushLock pushLock() {
        return whileBusy(Conflict.class::isInstance, store::lockPushes);
    }

    /**
     * Calls {@code call} every half second while it throws {@code busy} (another push holds the lock, or another take
     * starts its module), {@link #PUSH_WAIT} at most; then throws what the last call threw.
     */
    private static <T> T whileBusy(Predicate<RuntimeException> busy, Supplier<T> call) {
        List<RuntimeException> last = new ArrayList<>(1);
        Poll.Result<T> r = Poll.until(PUSH_WAIT, Duration.ofMillis(500), () -> {
            try {
                return Poll.got(call.get());
            } catch (RuntimeException e) {
                if (!busy.test(e)) {
                    throw e;
                }
                last.clear();
                last.add(e);
                return Poll.notYet(e.getMessage());
            }
        });
        if (r instanceof Poll.Answered<T> a) {
            return a.value();
        }
        throw last.get(0);
    }

    /** Waits until the target has applied {@code generation} and runs every component of the module without an error. */
    private Outcome awaitRunning(Take t, Node target, long generation) {
        Poll.Result<Boolean> r = Poll.until(HEALTHY, Duration.ofSeconds(1), () -> {
            try {
                HostStatus s = agents.statusRefreshed(target);
                List<HostStatus.Component> mine = s.components().stream().filter(c -> t.module().equals(c.module())).toList();
                List<String> notYet = mine.stream().filter(c -> c.state() != ComponentState.RUNNING || c.error() != null)
                        .map(c -> c.name() + " (" + (c.error() != null ? c.error() : c.state()) + ")").toList();
                if (s.appliedGeneration() >= generation && !mine.isEmpty() && notYet.isEmpty()) {
                    return Poll.got(Boolean.TRUE);
                }
                return Poll.notYet(s.appliedGeneration() < generation ? "it has not applied generation " + generation + " yet"
                        : mine.isEmpty() ? "it runs no component of the module" : String.join(", ", notYet));
            } catch (CallFailure e) {
                return Poll.notYet(e.getMessage());
            }
        });
        return r instanceof Poll.TimedOut<Boolean> late ? new Failed(Reason.TIMED_OUT, "module " + t.module() + " is not running on "
                + t.to() + " after " + HEALTHY.toSeconds() + " s: " + late.lastWhy()) : new Done();
    }

    /**
     * In one transaction: the placement (assigned and taken) and the roster move to the target. Under the push lock, as
     * a push's roster write is: the roster is written whole, so two switches of a drain's takes side by side would each
     * delete it and insert their own (the later one failed on a duplicate name), and a snapshot read before another
     * switch committed would write back that switch's module where it was.
     */
    private Outcome switchOver(Take t) {
        try (PushLock lock = pushLock()) {
            return switchOverLocked(t);
        }
    }

    private Outcome switchOverLocked(Take t) {
        MeshStore.PushSnapshot s = store.pushSnapshot();
        List<Placement> taken = TakeStart.asTaken(s.placements(), t.module(), t.to());
        List<MeshPlan.RosterEntry> roster = List.copyOf(plan(s, taken, taken).roster().values());
        return store.inTransaction(c -> switchIn(store, c, t, roster));
    }

    /**
     * The switch's transaction on {@code c}: the take's record locked first (a read of a switch in doubt locks it too),
     * then the placement and the roster written, unless the placement already names the target (a switch that
     * committed before: a dead runner's, or a commit that landed late) or the module was moved meanwhile. Refused,
     * writing nothing, once the record holds a failed try of the switch: the runner that gave up on this try decides
     * from the placement it reads, and a switch written after that read would land behind its decision, after a
     * rollback deleted the target's copy.
     */
    static Outcome switchIn(MeshStore store, Connection c, Take t, List<MeshPlan.RosterEntry> roster) throws SQLException {
        Take now = lockedRecord(c, t);
        Placement p = store.placement(c, t.module());
        if (TakePlan.switched(t, p.taken())) {
            return new Done();   // whatever 'mesh assign' did since: only the switch moves a running module's placement there
        }
        if (now == null || now.step() != TakeStep.SWITCH || TakePlan.switchInDoubt(now)) {
            return new Failed(Reason.CONFLICT, "the switch of " + t.module() + " was not written: the take no longer"
                    + " stands at a switch without a failed try");
        }
        if (!Objects.equals(p.taken(), t.from())) {
            return new Failed(Reason.CONFLICT, "module " + t.module() + " was moved while it was taken: it runs on "
                    + p.taken() + " now, not " + t.from());
        }
        store.putPlacement(c, new Placement(t.module(), t.to(), t.to()));
        store.replaceRoster(c, roster);
        return new Done();
    }

    private Outcome switchFound(Take t) {
        return store.inTransaction(c -> switchFound(store, c, t, SWITCH_LOCK));
    }

    /**
     * What the store holds of a switch in doubt ({@link TakePlan#switchInDoubt}), read on {@code c}: where the placement
     * has the module taken; {@link TakePlan} decides from it. The take's record is locked first, as the switch's
     * transaction locks it before it writes ({@link #switchIn}): one still committing (its commit waiting on a paused
     * synchronous standby, which keeps its locks until the standby acknowledges) holds it, so this read waits for it and
     * sees what it wrote; one that locks it later finds the failed try on record and writes nothing. A lock still held
     * after {@code wait} fails this try (tried again later) rather than leave a connection waiting. No push lock:
     * nothing is written.
     */
    static Outcome switchFound(MeshStore store, Connection c, Take t, Duration wait) throws SQLException {
        try (var s = c.createStatement()) {
            s.execute("set local lock_timeout = '" + wait.toMillis() + "ms'");
        }
        if (lockedRecord(c, t) == null) {
            throw new Conflict("the record of the take of " + t.module() + " at epoch " + t.epoch() + " is gone");
        }
        return new TakePlan.SwitchFound(store.placement(c, t.module()).taken());
    }

    /** The take's (or the restore's) record as stored, its row locked until the transaction ends; null when gone. */
    private static Take lockedRecord(Connection c, Take t) throws SQLException {
        return t.restoring() ? BackupRecords.lockedRestore(c, t.fromBackup().restore()).map(BackupRecords.RestoreRow::restore)
                .orElse(null) : TakeRecords.locked(c, t.epoch()).orElse(null);
    }


    /**
     * The push after the switch: first the edges whose routes move with the module are sent only their new
     * routes ({@link EdgeFirst}), so no edge proxies to the stopped source while binders are replaced; then
     * the ordinary push, where the target, the source and the binders differ, and nothing else should.
     */
    private Outcome push(Take t, Where w) {
        edgeFirst(t);
        PushReport report = pushWaiting(List.of(), t);
        List<String> behind = report.nodes().stream().filter(n -> n.outcome() == PushReport.Outcome.BEHIND)
                .map(n -> n.node() + " (" + n.error() + ")").toList();
        if (report.nodes().stream().anyMatch(n -> n.node().equals(t.to()) && n.outcome() == PushReport.Outcome.BEHIND)) {
            return new Failed(Reason.UNREACHABLE, "the push did not reach " + String.join(", ", behind));
        }
        // the take ends once the binders run with the moved names, as 'mesh push --wait' would see them
        Map<Node, Long> sent = new LinkedHashMap<>();
        report.nodes().stream().filter(n -> n.outcome() == PushReport.Outcome.SENT && w.nodes().containsKey(n.node()))
                .forEach(n -> sent.put(w.node(n.node()), n.generation()));
        awaitApplied(sent, PUSH_APPLIED);
        return new Done();
    }

    /**
     * Sends each edge whose routes the switch moved its acknowledged declaration with only the new routes,
     * under the push lock and recorded as a push records it, and waits (briefly) until each has applied it.
     * An edge that does not answer is left to the push that follows, which sends it everything.
     */
    private void edgeFirst(Take t) {
        Map<Node, Long> sent = new LinkedHashMap<>();
        try (PushLock lock = pushLock()) {
            MeshStore.PushSnapshot s = store.pushSnapshot();
            for (EdgeFirst.Send e : EdgeFirst.sends(plan(s, s.placements(), s.placements()), s.sent())) {
                try {
                    sent.put(e.node(), sender.sendForTake(t, TakeSends.of(e)).generation());
                } catch (CallFailure later) {
                    // the push that follows sends this node its whole declaration
                }
            }
        }
        awaitApplied(sent, EDGE_FIRST);
    }

    /**
     * Waits, {@code limit} at most in all, until each node has applied at least its generation; a node
     * that does not answer is not waited for (the agent applies its record when it is back).
     */
    private void awaitApplied(Map<Node, Long> generations, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        generations.forEach((node, generation) -> {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                Poll.until(Duration.ofNanos(left), Duration.ofMillis(200), () -> {
                    try {
                        return agents.statusRefreshed(node).appliedGeneration() >= generation;
                    } catch (CallFailure gone) {
                        return true;   // not waited for: the agent applies its record when it is back
                    }
                });
            }
        });
    }

    private PushReport pushWaiting(List<String> named, Take t) {
        return whileBusy(e -> e instanceof PushBusy || e instanceof TakeStarting, () -> pushes.push(named, false, true, t));
    }

    private Outcome oldCopy(Take t, Where w) {
        List<String> names = t.volumes().stream().map(Take.Volume::name).toList();
        calls.oldCopy(w.node(t.from()), t.module(), t.epoch(), names);
        store.inTransaction(c -> {
            TakeRecords.recordOldCopy(c, t.module(), t.from(), t.epoch(), names);
            TakeRecords.forget(c, t.module(), t.to(), 0);  // the copy there was emptied before this take's copy
            return null;
        });
        return new Done();
    }

    /**
     * Stops the module on the target for sure (a fence answers once it is stopped), then sends the
     * target its declaration from the store, where the module is not taken there, so lifting that
     * fence later starts nothing.
     */
    private Outcome stopTarget(Take t, Where w) {
        calls.fence(w.node(t.to()), t.module(), t.epoch());
        PushReport report = pushWaiting(List.of(t.to()), t);
        return report.nodes().stream().filter(n -> n.node().equals(t.to()) && n.outcome() == PushReport.Outcome.BEHIND)
                .findFirst().<Outcome>map(n -> new Failed(Reason.UNREACHABLE, "node " + t.to() + " was not sent its"
                        + " declaration without the module: " + n.error())).orElse(new Done());
    }

    /**
     * Deletes this take's copy of each volume on the target. A volume the take never began to copy (the
     * copy failed before it), or whose deletion a dead runner already did, is not this epoch's copy there:
     * the agent refuses it as such (409, "was not made here by the take at epoch E"), which leaves
     * nothing of this take's to delete, so it is passed over. Any other refusal fails the step. Before the
     * start, a target that does not answer (no status within {@link LeftCopies#GRACE}: an agent started again
     * answers within it; or no answer to the delete itself) is not waited for further: the copy is recorded
     * as left ({@link LeftCopies}) and the take ends rolled back.
     */
    private Outcome deleteCopy(Take t, Where w) {
        if (TakePlan.switched(t, w.placement().taken())) {
            // the last guard of the target's data: a rollback is decided only once the switch is known not to have
            // committed (TakePlan.switchInDoubt); should the placement name the target all the same, that copy is the
            // module's data, and the take waits rather than delete it
            return new Failed(Reason.CONFLICT, "the placement has " + t.module() + " taken on " + t.to()
                    + ": the switch went through, so the copy there is its data and is not deleted");
        }
        Node target = w.node(t.to());
        boolean mayLeave = !TakePlan.targetStarted(t);
        LeftCopies left = new LeftCopies(store, agents);
        if (mayLeave && !left.answersWithin(target, LeftCopies.GRACE)) {
            return left.leave(t, "node " + t.to() + "'s agent did not answer the delete of the copy within "
                    + LeftCopies.GRACE.toSeconds() + " s");
        }
        for (Take.Volume v : t.volumes()) {
            try {
                calls.delete(target, t.module(), v.name(), v.kind(), t.epoch(), "rollback");
            } catch (CallFailure e) {
                if (mayLeave && e.kind() == CallFailure.Kind.UNREACHABLE) {
                    return left.leave(t, e.getMessage());
                }
                if (e.reason() != NOT_TAKES_COPY) {
                    throw e;
                }
            }
        }
        return new Done();
    }

    /** Lifts the target's fence (when the rollback set one), then the source's: the source starts the module again. */
    private Outcome unfence(Take t, Where w) {
        if (TakePlan.targetFenced(t)) {
            calls.unfence(w.node(t.to()), t.module(), t.epoch());
        }
        if (t.from() != null) {
            calls.unfence(w.node(t.from()), t.module(), t.epoch());
        }
        return new Done();
    }
}
