package mesh.install;

import mesh.wire.CallFailure;
import mesh.model.ComponentState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import mesh.bundle.BundleLimits;
import mesh.bundle.BundlePush;
import mesh.bundle.BundleRef;
import mesh.bundle.HttpRegistry;
import mesh.controller.AgentClient;
import mesh.model.Declaration;
import mesh.model.Poll;
import mesh.plan.InstallStep;
import mesh.plan.Preflight;
import mesh.plan.SeatCatalogue;
import mesh.wire.HostStatus;
import mesh.wire.ModuleView;
import mesh.wire.NodeView;
import mesh.wire.PushReport;

/**
 * SeatSteps does each step of seating a new mesh on this machine (see {@link InstallStep}); each
 * is safe to do again after a crash part-way through it. What each step pushes is planned purely
 * by {@link SeatCatalogue}; this class only gathers, sends, waits and checks.
 */
public final class SeatSteps implements InstallRunner.Steps {

    private static final Duration RUNNING = Duration.ofMinutes(3);

    private final InstallOptions o;
    private final InstallJournal journal;
    private final AgentSetup agent;
    private final TempController temp;
    private final Consumer<String> say;
    private final SeatSecrets secrets;
    /** A rebuild's controller step pushes the seat alone: every other node keeps what it runs until the operator pushes. */
    private boolean seatOnly;

    public SeatSteps(InstallOptions o, InstallJournal journal, Consumer<String> say) {
        this.o = o;
        this.journal = journal;
        this.say = say;
        this.agent = new AgentSetup(o, say);
        this.temp = new TempController(o.stateDir());
        this.secrets = new SeatSecrets(journal.dir());
    }

    /** This seat is rebuilt from a state backup: the controller step pushes only the seat (docs/rebuild.md). */
    SeatSteps rebuilt() {
        this.seatOnly = true;
        return this;
    }

    @Override
    public void run(InstallStep step) {
        switch (step) {
            case PREFLIGHT -> preflight(Preflight.SEAT_PORTS);
            case AGENT -> {
                seatTls();
                agent.install();
            }
            case STORE -> store();
            case REGISTRY -> registry();
            case BUNDLE -> bundle();
            case CONTROLLER -> controller();
            case PIVOT -> pivot();
            case CONFIG -> config();
            default -> throw new InstallFailure("step " + step.word() + " is not part of seating a mesh");
        }
    }

    void preflight(List<Integer> ports) {
        preflight(o, ports);
    }

    /** Checks the machine for {@code ports}; every problem named, nothing changed. */
    static void preflight(InstallOptions o, List<Integer> ports) {
        List<String> problems = Preflight.problems(MachineFacts.gather(o.engine(), o.address(), o.stateDir(), ports));
        if (!problems.isEmpty()) {
            throw new InstallFailure("this machine is not ready; nothing was changed:\n  " + String.join("\n  ", problems));
        }
    }

    /**
     * The mesh CA, made here on the seat (its key 0600 under the state dir, never in the store), and
     * the certificates of the seat's agent and of the controller (docs/trust.md). A rerun keeps them.
     */
    void seatTls() {
        try {
            java.time.Instant now = java.time.Instant.now();
            mesh.trust.TlsDir tls = o.tls();
            mesh.trust.MeshCa ca = tls.ensureCa(o.node(), now);
            tls.ensureIssued(ca, "agent", mesh.trust.MeshCa.Role.AGENT, o.node(), List.of(o.node(), o.address()), now);
            tls.ensureIssued(ca, "controller", mesh.trust.MeshCa.Role.CONTROLLER, mesh.trust.MeshCa.CONTROLLER,
                    List.of(o.address(), "127.0.0.1", "localhost", o.node()), now);
        } catch (IOException e) {
            throw new InstallFailure("cannot write the mesh CA and certificates under " + o.tls().dir() + ": " + e.getMessage(), e);
        }
    }

    /** The controller's TLS settings, and the CA key it issues a joining node's certificate with. */
    private Map<String, String> controllerTls() {
        Map<String, String> env = o.tls().serveEnv("controller");
        env.put("MESH_CA_KEY", o.tls().caKey().toString());
        return env;
    }

    private SeatApi api(String url) {
        return new SeatApi(url, controllerToken(), mesh.trust.TlsContexts.trusting(mesh.trust.Pem.certificate(o.tls().caCert())));
    }

    String controllerToken() {
        return journal.secret("MESH_CONTROLLER_TOKEN", InstallJournal::newToken);
    }

    /**
     * The file the controller reads its admin token from (MESH_CONTROLLER_TOKEN_FILE), written 0600 beside the
     * install's other secrets: the controller's manifest names the file, never the token, so no store row,
     * declaration or host record holds it (docs/trust.md).
     */
    private Path controllerTokenFile() {
        return secrets.file("controller-token", controllerToken());
    }

    /**
     * The file the controller reads the store's password from (MESH_STORE_PASSWORD_FILE), 0600: the one
     * secret the controller needs before it can read any sealed in the store (docs/trust.md, "Secrets").
     */
    private Path storePasswordFile() {
        return secrets.file("store-password", o.storeUrl() != null ? "" : storePassword());
    }

    String storePassword() {
        return journal.secret("MESH_STORE_PASSWORD", InstallJournal::newToken);
    }

    String storeUrl() {
        return o.storeUrl() != null ? o.storeUrl() : "jdbc:postgresql://" + o.address() + ":5432/mesh";
    }

    private Map<String, String> values() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("STORE_IMAGE", o.storeImage());
        v.put("REGISTRY_IMAGE", o.registryImage());
        v.put("STORE_PASSWORD_FILE", storePasswordFile().toString());
        v.put("SECRETS_KEY_FILE", secrets.keyFile().toString());
        v.put("STORE_USER", o.storeUrl() != null ? "" : "mesh");
        v.put("STORE_URL", storeUrl());
        v.put("CONTROLLER_TOKEN_FILE", controllerTokenFile().toString());
        v.put("ADDRESS", o.address());
        v.put("EPOCH", Long.toString(epoch() + 1));
        v.put("SEAT_NODE", o.node());
        controllerTls().forEach((k, value) -> v.put(k.replace("MESH_", ""), value));
        String bundle = journal.secret("CONTROLLER_BUNDLE", () -> "");
        if (!bundle.isEmpty()) {
            v.put("CONTROLLER_BUNDLE", bundle);
        }
        return v;
    }

    /** The built-in manifests the seat runs, filled in: the store only when the mesh keeps its own. */
    private Map<String, String> manifests(List<String> modules) {
        Map<String, String> templates = new LinkedHashMap<>();
        for (String m : modules) {
            try (InputStream in = SeatSteps.class.getResourceAsStream("/install/" + m + ".yaml")) {
                templates.put(m, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException | NullPointerException e) {
                throw new InstallFailure("this mesh lacks its built-in manifest " + m);
            }
        }
        return SeatCatalogue.fill(templates, values());
    }

    private List<String> seatModules(boolean withRegistry, boolean withController) {
        List<String> modules = new ArrayList<>();
        if (o.storeUrl() == null) {
            modules.add(SeatCatalogue.STORE);
        }
        if (withRegistry) {
            modules.add(SeatCatalogue.REGISTRY);
        }
        if (withController) {
            modules.add(SeatCatalogue.CONTROLLER);
        }
        return modules;
    }

    /** Before a controller exists, the installer pushes the seat's declaration to its agent itself. */
    private void pushToAgent(List<String> modules) {
        AgentClient client = agent.client();
        HostStatus now = agent.awaitAgent(Duration.ofSeconds(30));
        Declaration d = SeatCatalogue.declaration(agent.node(), manifests(modules), modules, now.generation() + 1,
                o.storeUrl() != null ? mesh.plan.SecretValues.NONE : secrets.bootSecrets(storePassword()));
        try {
            client.pushGrowing(agent.node(), d);
        } catch (CallFailure e) {
            throw new InstallFailure("the seat's agent refused its declaration: " + e.getMessage(), e);
        }
        awaitRunning(modules);
    }

    /** Waits until every component of {@code modules} runs on the seat. */
    private HostStatus awaitRunning(List<String> modules) {
        HostStatus[] last = {null};
        Poll.Result<HostStatus> r = AgentSetup.until(RUNNING, Duration.ofMillis(500), () -> {
            HostStatus s = agent.awaitAgent(Duration.ofSeconds(30));
            last[0] = s;
            List<HostStatus.Component> mine = s.components().stream().filter(c -> modules.contains(c.module())).toList();
            return !mine.isEmpty() && mine.stream().allMatch(c -> c.state() == ComponentState.RUNNING) ? Poll.got(s)
                    : Poll.notYet("not all running");
        });
        if (r instanceof Poll.Answered<HostStatus> a) {
            return a.value();
        }
        HostStatus s = last[0];
        throw new InstallFailure("the seat does not run " + String.join(", ", modules) + " after " + RUNNING.toMinutes()
                + " min: " + (s == null ? "no status" : s.components().stream()
                .map(c -> c.name() + " " + c.state() + (c.error() == null ? "" : " (" + c.error() + ")")).toList()));
    }

    /**
     * Starts the store and the artifact store together (one declaration: the registry starts while
     * PostgreSQL initialises, some 5 s less than one after the other), then waits for the store.
     */
    void store() {
        pushToAgent(seatModules(true, false));
        awaitStore();
    }

    private void awaitStore() {
        Poll.Result<Boolean> r = AgentSetup.until(Duration.ofSeconds(90), Duration.ofMillis(500), () -> {
            try (var c = o.storeUrl() != null ? DriverManager.getConnection(storeUrl())
                    : DriverManager.getConnection(storeUrl(), "mesh", storePassword())) {
                return Poll.got(true);
            } catch (java.sql.SQLException e) {
                return Poll.notYet(e.getMessage());
            }
        });
        if (r instanceof Poll.TimedOut<Boolean> t) {
            throw new InstallFailure("the store at " + storeUrl() + " does not accept connections: " + t.lastWhy());
        }
    }

    /**
     * Waits for the artifact store the store step started; one that does not answer yet (an install
     * resumed after a crash, a registry still starting) is pushed again, unchanged, and waited for.
     */
    void registry() {
        String url = registryUrl();
        try {
            new HttpRegistry(url).ping();
            return;
        } catch (RuntimeException e) {
            pushToAgent(seatModules(true, false));
        }
        RuntimeException[] last = {null};
        Poll.Result<Boolean> r = AgentSetup.until(Duration.ofSeconds(60), Duration.ofMillis(300), () -> {
            try {
                new HttpRegistry(url).ping();
                return Poll.got(true);
            } catch (RuntimeException e) {
                last[0] = e;
                return Poll.notYet(e.getMessage());
            }
        });
        if (r instanceof Poll.TimedOut<Boolean> t) {
            throw new InstallFailure("the artifact store at " + url + " does not answer: " + t.lastWhy(), last[0]);
        }
    }

    private String registryUrl() {
        return "http://" + o.address() + ":5000";
    }

    void bundle() {
        try {
            BundlePush.Pushed pushed = new BundlePush(new HttpRegistry(registryUrl()), BundleLimits.DEFAULT)
                    // without the JDK AOT caches: the bundle's tar sets every mtime to the epoch (a digest
                    // per content), so the jars no longer match a cache there, and they are ~100 MB
                    .push(agent.app(), BundleRef.parse("mesh-controller:latest"), "bin/mesh", path -> path.endsWith(".aot"));
            journal.put("CONTROLLER_BUNDLE", pushed.reference());
            say.accept("      published " + pushed.reference() + " (" + pushed.entries() + " files, "
                    + pushed.layerBytes() / 1024 + " KiB)");
        } catch (RuntimeException e) {
            throw new InstallFailure("cannot publish the controller's bundle: " + e.getMessage(), e);
        }
    }

    private Map<String, String> storeEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("MESH_STORE_URL", storeUrl());
        if (o.storeUrl() == null) {
            env.put("MESH_STORE_USER", "mesh");
            env.put("MESH_STORE_PASSWORD", storePassword());
        }
        env.put("MESH_CONTROLLER_TOKEN", controllerToken());
        env.put("MESH_SECRETS_KEY_FILE", secrets.keyFile().toString());
        return env;
    }

    /** The temporary controller's epoch; the permanent one's is the next (see V2__controller_epoch.sql). */
    private long epoch() {
        return Long.parseLong(journal.secret("EPOCH", () -> "0"));
    }

    void controller() {
        // a new epoch at each attempt, above any earlier one: the permanent controller of an earlier attempt is fenced too
        journal.put("EPOCH", Long.toString(Math.max(System.currentTimeMillis(), epoch() + 2)));
        Map<String, String> env = storeEnv();
        env.put("MESH_CONTROLLER_EPOCH", Long.toString(epoch()));
        env.put("MESH_SEAT_NODE", o.node());
        env.putAll(controllerTls());
        List<Long> ended = temp.stop();
        if (!ended.isEmpty()) {
            say.accept("      ended the temporary controller an earlier run left (pid " + ended.stream().map(String::valueOf)
                    .collect(Collectors.joining(", ")) + ")");
        }
        String url = temp.start(agent.launcher(), env);
        journal.put("TEMP_CONTROLLER", url);
        SeatApi api = api(url);
        // as long as the permanent controller's (pivot): a JVM controller's first start on a busy small machine took
        // over 60 s; one that exits ends the wait at once
        temp.awaitAnswer(api, Duration.ofMinutes(2));
        api.addNode(o.node(), o.address(), o.publicDomain());
        List<String> modules = seatModules(true, true);
        api.addCatalogue(manifests(modules));
        if (o.storeUrl() == null) {
            secrets.setStorePassword(api, storePassword());
        }
        for (String m : modules) {
            api.assign(o.node(), m);
        }
        PushReport report = seatOnly ? api.pushOnly(o.node()) : api.push();
        if (!report.complete()) {
            throw new InstallFailure("the temporary controller could not push the seat: " + report.nodes().stream()
                    .map(n -> n.node() + " " + n.outcome() + (n.error() == null ? "" : ": " + n.error())).toList());
        }
    }

    void pivot() {
        SeatApi api = api(controllerUrl());
        TempController.await(api, Duration.ofMinutes(2), null);
        List<NodeView> nodes = api.nodes();
        if (nodes.stream().noneMatch(n -> n.name().equals(o.node()))) {
            throw new InstallFailure("the controller at " + api.base() + " does not list the seat " + o.node());
        }
        List<String> modules = seatModules(true, true);
        List<ModuleView> catalogue = api.modules();
        for (String m : modules) {
            if (catalogue.stream().noneMatch(v -> v.module().equals(m) && o.node().equals(v.taken()))) {
                throw new InstallFailure("the controller's catalogue does not run " + m + " on " + o.node());
            }
        }
        awaitRunning(modules);
        fenceCheck();
        temp.stop();
    }

    /** The temporary controller, if it still runs, must refuse a write now that the permanent one has started. */
    private void fenceCheck() {
        if (temp.running().isEmpty()) {
            return;
        }
        try {
            api(journal.secret("TEMP_CONTROLLER", () -> "")).assign(o.node(), SeatCatalogue.CONTROLLER);
        } catch (CallFailure e) {
            if (e.reason() == mesh.wire.Reason.FENCED || e.reason() == mesh.wire.Reason.DEPOSED) {
                say.accept("      the temporary controller is fenced: " + e.getMessage().replaceAll(".*answered 409: ", ""));
                return;
            }
            throw e;
        }
        throw new InstallFailure("the temporary controller still accepts writes after the pivot: it is not fenced");
    }

    public String controllerUrl() {
        return "https://" + o.address() + ":7700";
    }

    void config() {
        Path file = o.home().resolve(".config/mesh/config");
        try {
            Files.createDirectories(file.getParent());
            AgentSetup.write(file, "# The operator's mesh CLI settings, written by mesh install (used when MESH_CONTROLLER/MESH_TOKEN are unset).\n"
                    + "MESH_CONTROLLER=" + controllerUrl() + "\nMESH_TOKEN=" + controllerToken()
                    + "\n# the mesh CA: the only one the CLI trusts for the controller's certificate\nMESH_CA=" + o.tls().caCert() + "\n",
                    "rw-------");
        } catch (IOException e) {
            throw new InstallFailure("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
