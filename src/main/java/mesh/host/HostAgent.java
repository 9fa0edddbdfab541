package mesh.host;

import mesh.model.ComponentState;
import mesh.wire.HostStatus;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import mesh.docker.DockerEngine;
import mesh.docker.Engine;
import mesh.host.edge.EdgeKeeper;
import mesh.host.take.ModuleControl;
import mesh.host.take.TakeRecords;
import mesh.host.take.TakeService;
import mesh.host.take.VolumePlaces;
import mesh.host.process.Backoff;
import mesh.host.process.LogFiles;
import mesh.host.process.ProcessStatus;
import mesh.host.process.ProcessSupervisor;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.plan.BundleRetention;
import mesh.plan.HostDiff;
import mesh.plan.HostPlan;
import mesh.plan.NetworkPrune;
import mesh.plan.NetworkRange;
import org.jboss.logging.Logger;

/**
 * HostAgent keeps this node's engine at the last declaration it accepted.
 *
 * <pre>
 *  PUT /v1/declaration ─► HostIntake: check, record (fsync) ─► desired ─► trigger ─┐
 *                                                                                   ▼
 *  every interval ──────────► pass: supervisor reconcile ─► observe (engine + processes) ─► HostDiff ─► ApplyRun
 *                                                                (empty plan: no write, no log)
 * </pre>
 *
 * Passes run one at a time on one thread. After a restart the agent starts from the newest record,
 * so it converges without replacing anything that already matches.
 */
@ApplicationScoped
public class HostAgent implements ModuleControl {

    private static final Logger LOG = Logger.getLogger("mesh.host");

    private volatile HostSettings settings;
    private volatile boolean ready;
    /** A pass is running: it may be changing containers toward an older generation right now. */
    private volatile boolean passing;
    private Engine engine;
    private ProcessComponents processes;
    private HostIntake intake;
    private TakeService takes;
    private ScheduledExecutorService loop;
    private ExecutorService pool;
    private Clock clock = Clock.systemUTC();
    private volatile Declaration desired;
    private volatile long appliedGeneration;
    private volatile boolean converged;
    private volatile Instant lastPass;
    /** The engine as last observed (by a pass or a push), so a status answer costs no engine call. */
    private volatile List<ObservedContainer> lastObserved = List.of();
    private volatile Map<String, HostStatus.Process> lastProcesses = Map.of();
    private volatile java.util.Set<String> lastFenced = java.util.Set.of();
    private final FailureLog failures = new FailureLog(LOG::warn, LOG::info);
    /** What the last pass saw of each component (restarts, health), and over which generation. */
    private volatile Map<String, mesh.model.Vitals> lastVitals = Map.of();
    private volatile long judgedGeneration;
    /** While the engine fails: passes back off ({@link #ENGINE_BACKOFF}), so a down engine is not asked every interval. */
    private volatile Instant nextEngineTry;
    /** The edge's keeper (docs/design.md, "The edge"); null in an agent built by hand, which keeps no edge. */
    @Inject
    EdgeKeeper edge;

    /**
     * Starts serving with these settings: loads the newest record and converges to it. A range for module
     * networks that overlaps the node's own addresses or routes is refused first, naming both
     * ({@link NetworkRange#hostConflicts}).
     */
    public synchronized void start(HostSettings settings) {
        List<String> conflicts = NetworkRange.hostConflicts(settings.networks(), HostNetworks.read());
        if (!conflicts.isEmpty()) {
            throw new mesh.model.InvalidInput(conflicts);
        }
        start(settings, new DockerEngine(settings.engine()));
    }

    synchronized void start(HostSettings settings, Engine engine) {
        if (this.settings != null) {
            throw new IllegalStateException("the host agent is already running for node " + this.settings.node());
        }
        this.settings = settings;
        this.engine = engine;
        this.processes = ProcessComponents.of(settings.stateDir());
        this.intake = new HostIntake(settings.node(), new DeclarationRecords(settings.stateDir()), engine, processes,
                settings.networks(), clock,
                settings.parallelism());
        this.takes = new TakeService(new TakeRecords(settings.stateDir()), new VolumePlaces(engine, settings.stateDir(),
                settings.node()), this, clock);
        DeclarationRecords records = intake.records();
        this.desired = records.latest().map(DeclarationRecord::declaration).orElse(null);
        LOG.infof(desired == null ? "no declaration recorded in %s yet; waiting for a push"
                : "resuming from the record of generation %2$d in %1$s", records.dir(),
                desired == null ? 0 : desired.generation());
        this.pool = applyPool(settings.parallelism());
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "mesh-host-loop"));
        loop.scheduleWithFixedDelay(this::pass, 0, settings.interval().toMillis(), TimeUnit.MILLISECONDS);
        ready = true;
    }

    /**
     * applyPool is the apply parallelism's pool. Its threads end after 30 s idle: between pushes an
     * agent holds no apply threads (nor their stacks and C-heap arenas), see docs/benchmarks.md.
     */
    static ExecutorService applyPool(int parallelism) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(parallelism, parallelism, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> new Thread(r, "mesh-apply"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Whether this generation (or a newer one) is applied and the engine matched it at the last look. */
    public boolean applied(long generation) {
        return converged && appliedGeneration >= generation;
    }

    /** True once start has set everything up: until then the API answers "starting" (503). */
    public boolean serving() {
        return ready;
    }

    public HostSettings settings() {
        return settings;
    }

    /**
     * Accepts a declaration through the {@link HostIntake} (refused if for another node or not newer
     * than the last: {@link DeclarationRefused}), makes it the desired state and wakes the loop.
     * Returns what it changes against what runs now, or nothing if the engine does not answer (the
     * loop applies it when it does).
     */
    public Optional<HostPlan> accept(Declaration d) {
        intake.accept(d, taken -> {
            desired = taken;
            converged = false;
        });
        try {
            HostPlan plan = unfenced(d).plan();
            LOG.infof("accepted generation %d, %s: %s", d.generation(),
                    d.push() == null ? "its push not named" : d.push().words(), plan.summary());
            if (plan.isEmpty() && !passing) {
                markApplied(d, true);   // the engine already matches: nothing for a pass to do
            } else {
                loop.execute(this::pass);
            }
            keepEdge(d);
            return Optional.of(plan);
        } catch (RuntimeException e) {
            loop.execute(this::pass);
            // Recorded and held: the loop applies it when the engine answers. Say so rather than fail the push.
            LOG.warnf("accepted generation %d; the engine did not answer: %s", d.generation(), e.getMessage());
            return Optional.empty();
        }
    }

    /** What a declaration would change against what runs now; refuses one for another node. */
    public HostPlan preview(Declaration d) {
        return intake.preview(d);
    }

    /**
     * ENGINE_BACKOFF is how long passes wait after the engine failed: one interval after the first failure,
     * doubling, at most {@code cap} (two minutes, or the interval if longer). Processes are still
     * reconciled on every pass: they do not need the engine.
     */
    private Backoff engineBackoff() {
        Duration interval = settings.interval();
        Duration cap = interval.compareTo(Duration.ofMinutes(2)) > 0 ? interval : Duration.ofMinutes(2);
        return new Backoff(interval, cap, Duration.ZERO);
    }

    void pass() {
        pass(false);
    }

    /**
     * One pass: observe, diff, apply, look at how each component does. Never throws: the loop must
     * survive every failure. While the engine fails, a pass that is not {@code forced} (by a refresh)
     * skips the engine until its backoff has passed.
     */
    void pass(boolean forced) {
        passing = true;   // before reading desired: accept must not call a pass's half-done work applied
        Declaration d = desired;
        if (d == null) {
            passing = false;
            return;
        }
        Instant now = clock.instant();
        if (!forced && nextEngineTry != null && now.isBefore(nextEngineTry)) {
            reconcileProcesses();
            passing = false;
            return;
        }
        try {
            keepFences();
            reconcileProcesses();
            HostIntake.Unfenced view = unfenced(d);
            HostPlan plan = view.plan();
            failures.note(HostStatus.ENGINE, null, now);
            nextEngineTry = null;
            boolean done;
            Map<String, String> failing = Map.of();
            if (!plan.isEmpty()) {
                ApplyReport report = new ApplyRun(engine, processes, settings.networks(), pool, LOG::info).run(view.declaration(), plan);
                failing = report.failures();
                done = report.ok() && HostDiff.between(view.declaration(),
                        mesh.host.take.FenceFilter.observed(observe(d.node()), view.fenced())).isEmpty();
            } else {
                done = true;
            }
            Map<String, mesh.model.Vitals> previous = lastVitals;
            Map<String, mesh.model.Vitals> looked = new java.util.HashMap<>();
            new ComponentLook(engine, processes, pool).look(view.declaration(), lastObserved, clock.instant())
                    .forEach((name, v) -> looked.put(name, v.orLastExitOf(previous.get(name))));
            lastVitals = Map.copyOf(looked);
            failures.noteComponents(failing, clock.instant());
            judgedGeneration = d.generation();
            pruneNetworks(d);
            markApplied(d, done);
            lookAgainSoonIfStarting();
            keepEdge(d);
            cleanBundles(d);
        } catch (RuntimeException e) {
            failures.note(HostStatus.ENGINE, e.getMessage() == null ? "the engine call failed without a reason" : e.getMessage(), now);
            nextEngineTry = now.plus(engineBackoff().delay(failures.passes(HostStatus.ENGINE)));
            converged = false;
        } finally {
            lastPass = clock.instant();
            passing = false;
        }
    }

    /** A look again is scheduled: at most one at a time. */
    private final java.util.concurrent.atomic.AtomicBoolean lookAgain = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * While a component is starting (up for an instant, or its health check not passing yet), the next
     * look comes after {@link #STARTING_LOOK} rather than a whole interval, so {@code push --wait} learns
     * soon whether it runs, and a process that exits at once is seen crash-looping, not running.
     */
    private void lookAgainSoonIfStarting() {
        boolean starting = status().components().stream().anyMatch(c -> c.state() == ComponentState.STARTING);
        if (starting && settings.interval().compareTo(STARTING_LOOK) > 0 && lookAgain.compareAndSet(false, true)) {
            loop.schedule(() -> {
                lookAgain.set(false);
                pass(false);
            }, STARTING_LOOK.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    static final Duration STARTING_LOOK = Duration.ofSeconds(1);

    /** Networks whose removal the engine refused (something foreign is attached): said once, not every pass. */
    private final java.util.Set<String> networksKept = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Removes the networks of modules nothing of which remains on this node (never a volume). */
    private void pruneNetworks(Declaration d) {
        for (String network : NetworkPrune.leftOver(engine.networks(d.node()), d, lastObserved)) {
            try {
                engine.removeNetwork(network);
                networksKept.remove(network);
                LOG.infof("removed network %s: nothing of its module remains on this node", network);
            } catch (RuntimeException e) {
                if (networksKept.add(network)) {
                    LOG.warnf("kept network %s: %s", network, e.getMessage());
                }
            }
        }
    }

    /** Records the outcome for {@code d}, unless a push has brought a newer generation meanwhile. */
    private synchronized void markApplied(Declaration d, boolean done) {
        if (desired == d) {
            converged = done;
            if (done) {
                appliedGeneration = d.generation();
            }
        }
    }

    /** Loads the declaration's routes into the edge when they differ from what it serves (one reload, no replace). */
    private void keepEdge(Declaration d) {
        if (edge != null) {
            edge.keep(d, lastObserved, engine);
        }
    }

    /** Restarts the processes that ended and are due (backoff), whatever the engine says: on every pass. */
    private void reconcileProcesses() {
        try {
            for (ProcessSupervisor.Outcome o : processes.supervisor().reconcile(clock.instant())) {
                if (o.action() != ProcessSupervisor.Action.KEPT && o.action() != ProcessSupervisor.Action.WAITING) {
                    LOG.infof("%s %s: %s", o.action(), o.component(), o.detail());
                }
            }
        } catch (RuntimeException e) {
            LOG.warnf("the process supervisor failed: %s", e.getMessage());
        }
    }

    /** Deletes the bundles no declared component or supervised process uses (see {@link BundleRetention}). */
    private void cleanBundles(Declaration d) {
        try {
            List<String> deleted = processes.clean(d, clock.instant(), BundleRetention.Policy.DEFAULT);
            if (!deleted.isEmpty()) {
                LOG.infof("deleted %d bundle(s) no component uses: %s", deleted.size(), deleted);
            }
        } catch (RuntimeException e) {
            LOG.warnf("could not clean the unused bundles: %s", e.getMessage());
        }
    }

    /** The declaration and what runs, without the fenced modules; remembers what runs for the status. */
    private HostIntake.Unfenced unfenced(Declaration d) {
        HostIntake.Unfenced view = intake.unfenced(d);
        lastFenced = view.fenced();
        lastObserved = view.all();
        lastProcesses = processStatus();
        return view;
    }

    /**
     * Stops whatever of a fenced module runs: after a restart (the agent may have been killed between
     * recording a fence and stopping the module) and behind the agent's back. Runs on the loop, first in a pass.
     */
    private void keepFences() {
        java.util.Set<String> fenced = intake.fenced();
        lastFenced = fenced;
        for (String module : fenced) {
            if (moduleRuns(module)) {
                LOG.infof("module %s is fenced; stopping what of it runs: %s", module, stopNow(module));
            }
        }
    }

    /** The engine this agent runs its containers on (a take's image check asks it). */
    Engine engine() {
        return engine;
    }

    /**
     * {@code POST /v1/bundles}: which of the bundles this node lacks and cannot get (fetching each one it
     * lacks first when the request says so), on the loop, like every fetch of an apply.
     */
    public mesh.wire.BundlesAnswer bundles(mesh.wire.BundlesRequest request) {
        List<String> wanted = request.bundles() == null ? List.of() : request.bundles().stream()
                .filter(b -> b != null && !b.isBlank()).distinct().toList();
        return onLoop("checking bundles", "check the bundles", () -> {
            List<mesh.wire.BundlesAnswer.Missing> missing = new java.util.ArrayList<>();
            for (String b : wanted) {
                processes.bundleMissing(b, request.registry(), request.fetch())
                        .ifPresent(why -> missing.add(new mesh.wire.BundlesAnswer.Missing(b, why)));
            }
            return new mesh.wire.BundlesAnswer(missing);
        });
    }

    /**
     * Runs {@code work} on the agent's loop, between passes, and waits for it; a failure is a HostFailure
     * saying "interrupted while {@code doing}" or "could not {@code todo}: why".
     */
    private <T> T onLoop(String doing, String todo, java.util.concurrent.Callable<T> work) {
        try {
            return loop.submit(work).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostFailure("interrupted while " + doing, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new HostFailure("could not " + todo + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** The take side of this agent (docs/take.md, "On the nodes"). */
    public TakeService takes() {
        return takes;
    }

    /** The module's volume names in the current declaration, sorted. */
    public List<String> declaredVolumes(String module) {
        Declaration d = desired;
        return d == null ? List.of() : d.components().stream().filter(c -> c.module().equals(module))
                .flatMap(c -> c.volumes().keySet().stream()).distinct().sorted().toList();
    }

    @Override
    public List<String> stopModule(String module) {
        return onLoop("stopping module " + module, "stop module " + module, () -> stopNow(module));
    }

    /** Stops every running container and process of the module, each with its declared stop timeout. */
    private List<String> stopNow(String module) {
        Declaration d = desired;
        List<String> stopped = new java.util.ArrayList<>();
        List<java.util.concurrent.Future<?>> stops = new java.util.ArrayList<>();
        for (ObservedContainer o : engine.list(settings.node())) {
            if (module.equals(o.module()) && o.running()) {
                java.time.Duration grace = d == null ? null : d.component(o.name())
                        .map(c -> java.time.Duration.ofSeconds(c.stopTimeout())).orElse(null);
                stops.add(pool.submit(() -> engine.stop(o.id(), grace)));
                stopped.add(o.name());
            }
        }
        for (ProcessStatus s : processes.status(clock.instant())) {
            if (module.equals(s.module()) && s.state() != mesh.model.ProcessState.EXITED) {
                processes.supervisor().stop(s.component(), clock.instant());
                stopped.add(s.component());
            }
        }
        for (java.util.concurrent.Future<?> f : stops) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HostFailure("interrupted while stopping module " + module, e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new HostFailure(e.getCause().getMessage(), e.getCause());
            }
        }
        return stopped.stream().sorted().toList();
    }

    @Override
    public List<String> removeStoppedContainers(String module) {
        return onLoop("removing the containers of module " + module, "remove the containers of module " + module, () -> {
            List<String> removed = new java.util.ArrayList<>();
            for (ObservedContainer o : engine.list(settings.node())) {
                if (module.equals(o.module()) && !o.process() && !o.running()) {
                    engine.remove(o.id());
                    removed.add(o.name());
                }
            }
            return removed;
        });
    }

    @Override
    public boolean moduleRuns(String module) {
        boolean container = engine.list(settings.node()).stream().anyMatch(o -> module.equals(o.module()) && o.running());
        return container || processes.status(clock.instant()).stream()
                .anyMatch(s -> module.equals(s.module()) && s.state().runs());
    }

    private List<ObservedContainer> observe(String node) {
        List<ObservedContainer> observed = intake.observe(node);
        lastObserved = observed;
        lastProcesses = processStatus();
        return observed;
    }

    /** How long {@link #statusAfterPass} waits for its pass before it answers as of the last one. */
    public static final java.time.Duration REFRESH_WAIT = java.time.Duration.ofSeconds(10);

    /**
     * Where the agent stands after a pass run now ({@code mesh status --refresh}). The pass runs on
     * the loop's own thread, so never beside another; after {@link #REFRESH_WAIT} the answer is as of
     * the last pass that ended (its {@code lastPass} says when).
     */
    public HostStatus statusAfterPass() {
        if (loop != null && desired != null) {
            try {
                loop.submit(() -> pass(true)).get(REFRESH_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException
                     | java.util.concurrent.RejectedExecutionException e) {
                LOG.debugf("a refresh answered as of the last pass: %s", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return status();
    }

    /** What the supervisor says of each process, by component name. */
    private Map<String, HostStatus.Process> processStatus() {
        Map<String, HostStatus.Process> all = new java.util.HashMap<>();
        for (ProcessStatus s : processes.status(clock.instant())) {
            all.put(s.component(), new HostStatus.Process(s.state(), s.pid(), s.restarts(), s.lastExit(), s.lastExitAt(),
                    s.nextStartAt()));
        }
        return all;
    }

    /** What the supervisor says of each process now, for the follow of a process's output ({@link ComponentLogs}). */
    List<ProcessStatus> processesNow() {
        return processes.status(clock.instant());
    }

    /** The log files of a supervised component, for {@code mesh host logs}. */
    public LogFiles logs(String component) {
        return processes.supervisor().logs(component);
    }

    /** Where the agent stands, as of its last look at the engine (at most one interval old). */
    public HostStatus status() {
        return HostStatus.of(settings.node(), desired, appliedGeneration, converged, lastPass, lastObserved,
                failures.reasons(), lastProcesses, lastVitals, judgedGeneration, clock.instant(), lastFenced)
                .withEdge(edge == null ? null : edge.status())
                .withCertificateNotAfter(mesh.trust.ServerTrust.certificateNotAfter().orElse(null));
    }

    public DeclarationRecords records() {
        return intake.records();
    }

    public Optional<Declaration> desired() {
        return Optional.ofNullable(desired);
    }

    @PreDestroy
    synchronized void stop() {
        if (loop != null) {
            loop.shutdownNow();
            pool.shutdownNow();
            engine.close();
        }
    }

}
