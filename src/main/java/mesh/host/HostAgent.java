package mesh.host;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import mesh.docker.DockerEngine;
import mesh.docker.Engine;
import mesh.host.edge.EdgeKeeper;
import mesh.host.process.LogFiles;
import mesh.host.process.ProcessStatus;
import mesh.host.take.TakeRecords;
import mesh.host.take.TakeService;
import mesh.host.take.VolumePlaces;
import mesh.model.Declaration;
import mesh.plan.HostPlan;
import mesh.plan.NetworkRange;
import mesh.wire.BundlesAnswer;
import mesh.wire.BundlesRequest;
import mesh.wire.HostStatus;
import org.jboss.logging.Logger;

/**
 * HostAgent keeps this node's engine at the last declaration it accepted. It wires the parts and
 * answers the API's questions; the parts do the work:
 *
 * <pre>
 *  PUT /v1/declaration ─► HostResource ─► Acceptance: HostIntake (check, record, fsync), AgentState.desire ─► HostLoop.wake
 *                                                                                                                  │
 *  every interval ─► HostLoop ─► HostPass: KeepFences ─► ReconcileProcesses ─► ObserveStep ─► ApplyStep ◄─────────┘
 *   (one thread, coalescing,     ─► LookStep ─► PruneNetworks ─► MarkApplied ─► LookAgainSoon ─► KeepEdge ─► CleanBundles
 *    backoff)                    (PassSteps lists them all, NoEngineRestarts and ContainerRestarts too; ApplyStep: ApplyRun ─► Engine)
 * </pre>
 *
 * After a restart the agent starts from the newest record, so it converges without replacing anything that already
 * matches; a module with data that does not run waits for the controller first ({@link StartGate}); a take controls the
 * module it moves through {@link ModuleStops}.
 */
@ApplicationScoped
public class HostAgent {

    private static final Logger LOG = Logger.getLogger("mesh.host");

    /** How long {@link #statusAfterPass} waits for its pass before it answers as of the last one. */
    public static final Duration REFRESH_WAIT = Duration.ofSeconds(10);

    private volatile HostSettings settings;
    private volatile boolean ready;
    private Engine engine;
    private ProcessComponents processes;
    private HostIntake intake;
    private TakeService takes;
    private HostLoop loop;
    private ExecutorService pool;
    private AgentState state;
    private Acceptance acceptance;
    private final Clock clock = Clock.systemUTC();
    /** The edge's keeper (docs/design.md, "The edge"); null in an agent built by hand, which keeps no edge. */
    @Inject
    EdgeKeeper edge;

    /** Starts serving: loads the newest record and converges to it; a network range over the node's own is refused first. */
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
                settings.networks(), clock, settings.parallelism());
        this.state = new AgentState(settings.node(), clock, new FailureLog(LOG::warn, LOG::info));
        state.disks = new DiskSpace(engine::dataRoot, settings.stateDir());
        state.seats = new SeatEpochs(settings.stateDir());
        this.pool = HostLoop.applyPool(settings.parallelism());
        HostPass[] pass = new HostPass[1];
        this.loop = new HostLoop(settings.interval(), forced -> pass[0].run(forced));
        ContainerRestarts restarts = new ContainerRestarts(clock, loop::wakeAfter);
        ModuleStops modules = new ModuleStops(settings.node(), engine, processes, pool, loop, () -> state.desired, clock,
                restarts::stoppedOnPurpose, settings.networks());
        this.takes = new TakeService(new TakeRecords(settings.stateDir()), new VolumePlaces(engine, settings.stateDir(),
                settings.node()), modules, clock);
        KeepEdge keepEdge = new KeepEdge(edge, state, engine);
        StartGate gate = new StartGate(clock, loop::wakeAfter, LOG::info).holding(intake);
        pass[0] = PassSteps.pass(new PassSteps.Parts(settings, engine, processes, intake, state, loop, modules, pool, keepEdge,
                this::status, clock, gate, restarts), LOG);
        this.acceptance = new Acceptance(intake, state, loop, keepEdge, this::processesNow, LOG, gate);
        acceptance.resume();
        loop.start();
        ready = true;
    }

    /** Whether this generation (or a newer one) is applied and the engine matched it at the last look. */
    public boolean applied(long generation) {
        return state.converged && state.appliedGeneration >= generation;
    }

    /** True once start has set everything up: until then the API answers "starting" (503). */
    public boolean serving() {
        return ready;
    }

    public HostSettings settings() {
        return settings;
    }

    /**
     * Accepts a declaration through the {@link HostIntake} (refused if for another node or not newer than the last:
     * {@link DeclarationRefused}), makes it the desired state and wakes the loop. Returns what it changes against what
     * runs now, or nothing if the engine does not answer (the loop applies it when it does).
     */
    public Optional<HostPlan> accept(Declaration d) {
        return acceptance.accept(d);
    }

    /** What a declaration would change against what runs now; refuses one for another node. */
    public HostPlan preview(Declaration d) {
        return intake.preview(d);
    }

    /** The engine this agent runs its containers on (a take's image check asks it). */
    Engine engine() {
        return engine;
    }

    /** {@code POST /v1/bundles}: which bundles this node lacks and cannot get (fetching each it lacks first when asked), on the loop. */
    public BundlesAnswer bundles(BundlesRequest request) {
        return loop.onLoop("checking bundles", "check the bundles", () -> processes.missing(request));
    }

    /** What the agent knows between passes: for its metrics ({@link HostMetrics}), a take's declared volumes. */
    AgentState state() {
        return state;
    }

    /** The take side of this agent (docs/take.md, "On the nodes"). */
    public TakeService takes() {
        return takes;
    }

    /**
     * Where the agent stands after a pass run now ({@code mesh status --refresh}), on the loop's own thread, so never beside
     * another; after {@link #REFRESH_WAIT} the answer is as of the last pass that ended (its {@code lastPass} says when).
     */
    public HostStatus statusAfterPass() {
        if (loop != null && state.desired != null && !loop.passNow(REFRESH_WAIT)) {
            LOG.debug("a refresh answered as of the last pass");
        }
        return status();
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
        return state.status(edge == null ? null : edge.status()).withBuild(mesh.wire.Build.current())
                .withCertificateNotAfter(mesh.trust.ServerTrust.certificateNotAfter().orElse(null));
    }

    public DeclarationRecords records() {
        return intake.records();
    }

    public Optional<Declaration> desired() {
        return Optional.ofNullable(state.desired);
    }

    @PreDestroy
    synchronized void stop() {
        if (loop != null) {
            loop.stop();
            pool.shutdownNow();
            engine.close();
        }
    }
}
