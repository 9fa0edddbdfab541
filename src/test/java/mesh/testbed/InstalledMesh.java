package mesh.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mesh.cli.ConfigFile;
import mesh.install.RunningMesh;
import mesh.trust.TlsDir;

/**
 * InstalledMesh is a mesh raised the way operators raise one, for the end-to-end tests: the packaged
 * {@code mesh install} on the first test-bed node (the seat: its agent, store, registry and the
 * controller as the agent's process), then {@code mesh node add} and the printed
 * {@code mesh install --join} line on each other node, all over HTTPS with the mesh's CA, every server
 * started by the launcher install writes ({@link Launcher}: the serve flags, a 64 MB agent heap). The
 * tests then speak to it as an operator does: the packaged CLI with the config file install wrote.
 *
 * <p>It also gives a test what an operator's shell would: each node's engine, the agents' and the
 * controller's pids, SIGKILL and a restart of an agent with the same launcher line install used, and
 * GETs of an agent's API with the controller's certificate. {@link #close} removes everything it
 * made: processes (found by its folders in their command lines), the nodes' containers, volumes and
 * networks, its folders. Its nodes are named n1..nN in the mesh and run on the test-bed nodes n11.., n21.. or n31.. of
 * {@code scripts/testbed} (one of three ranges, taken at the raise and given back at the close: apart from the n1..
 * the other ITs use, so the classes marked {@link InstalledMeshTest} run beside them and beside each other), or, once
 * every other IT is done, on n1.. ({@link MeshRanges}); {@code -Dmesh.testbed.first=K} moves the ranges to nK+10..,
 * nK+20.., nK+30.. and nK.. (a developer running two suites at once; the mesh's names stay n1..nN).
 */
public final class InstalledMesh implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration AGENT_UP = Duration.ofSeconds(60);

    private final Map<String, InstalledNode> nodes = new LinkedHashMap<>();
    private final Map<String, DockerClient> engines = new HashMap<>();
    private final Map<String, String> cli = new HashMap<>();
    private HttpClient agentHttp;

    /**
     * How long a raise waits for a range ({@link MeshRanges}). JUnit may start more marked classes than there are ranges (a
     * pool thread blocked in a join is replaced), so classes queue there for what all the others before them take: about
     * 25 min today, two (after the main line three) at a time.
     */
    private static final Duration RANGE_WAIT = Duration.ofMinutes(80);

    private final int first;
    /** The test class that raised this mesh (the first caller outside this file), which names its kept logs. */
    private final String raisedBy = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
            .walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass).filter(c -> c != InstalledMesh.class)
                    .findFirst().map(Class::getSimpleName).orElse("InstalledMesh"));

    private InstalledMesh(int first) {
        this.first = first;
    }

    /** The number of the test-bed node this mesh's n1 runs on (11, 21 or 1): its range is that node and the nine after it. */
    public int firstTestbedNode() {
        return first;
    }

    /** Raises a mesh of {@code count} nodes: the first is the seat, each other joins it. */
    public static InstalledMesh raise(int count) throws Exception {
        return raise(count, List.of());
    }

    /** As {@link #raise(int)}, the seat's {@code mesh install} given {@code seatFlags} too. */
    public static InstalledMesh raise(int count, List<String> seatFlags) throws Exception {
        return raise(count, seatFlags, Map.of());
    }

    /**
     * As above, the nodes {@code builds} names (n1 the seat, n2, …) installed from another build's app folder
     * ({@link OtherBuild}): a mesh of more than one build. The seat's build is the controller's too.
     */
    public static InstalledMesh raise(int count, List<String> seatFlags, Map<String, Path> builds) throws Exception {
        long asked = System.nanoTime();
        Integer first = MeshRanges.SUITE.take(RANGE_WAIT);
        if (first == null) {
            throw new AssertionError("no range of test-bed nodes for an installed mesh was free within " + RANGE_WAIT
                    + " (each class that raises one must close it)");
        }
        System.out.printf("InstalledMesh: waited %.1f s for the range n%d..%n", secondsSince(asked), first);
        InstalledMesh mesh = new InstalledMesh(first);
        try {
            List<TestbedNodes.Node> bed = TestbedNodes.from(first, count);
            for (int i = 0; i < count; i++) {
                TestbedNodes.Node n = bed.get(i);
                killLeftovers(n);
                DockerClient engine = TestbedNodes.client(n);
                String name = "n" + (i + 1);
                mesh.engines.put(name, engine);
                wipe(engine);
                mesh.nodes.put(name, new InstalledNode(n, name, Files.createTempDirectory(marker(n)), builds.get(name)));
            }
            long began = System.nanoTime();
            mesh.installSeat(seatFlags);
            long seated = System.nanoTime();
            mesh.joinOthers();
            System.out.printf("InstalledMesh: raised %d nodes on n%d.. in %.1f s (the seat's install %.1f s, the joins %.1f s)%n", count,
                    first, secondsSince(began), (seated - began) / 1e9, secondsSince(seated));
            return mesh;
        } catch (Exception | AssertionError e) {
            mesh.close();
            throw e;
        }
    }

    private static String marker(TestbedNodes.Node n) {
        return "mesh-installed-" + n.name() + "-";
    }

    private void installSeat(List<String> seatFlags) throws Exception {
        InstalledNode seat = seat();
        List<String> args = new ArrayList<>(seat.seatArgs());
        args.addAll(seatFlags);
        PackagedMesh.Result install = seat.mesh(args);
        if (install.exit() != 0) {
            throw new AssertionError("mesh install on the seat failed\n" + install + "\nagent log:\n" + tail(agentLog(seat.name)));
        }
        install.out().lines().filter(l -> l.contains("done in ")).forEach(l -> System.out.println("InstalledMesh: seat: " + l.strip()));
        Map<String, String> config = ConfigFile.read(seat.home().resolve(".config/mesh/config"));
        for (String key : List.of("MESH_CONTROLLER", "MESH_TOKEN", "MESH_CA")) {
            cli.put(key, config.get(key));
        }
    }

    /** Each other node: {@code mesh node add}, then its printed join line run on it; the installs run side by side. */
    private void joinOthers() throws Exception {
        List<InstalledNode> others = new ArrayList<>(nodes.values()).subList(1, nodes.size());
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, others.size()));
        try {
            List<Future<PackagedMesh.Result>> joins = new ArrayList<>();
            for (InstalledNode n : others) {
                String join = ok("node", "add", n.name, "--address", n.node.address()).lines()
                        .map(String::strip).filter(l -> l.startsWith("mesh install --join ")).findFirst()
                        .orElseThrow(() -> new AssertionError("mesh node add printed no join line"));
                List<String> args = new ArrayList<>(List.of(join.substring("mesh ".length()).split(" ")));
                args.addAll(List.of("--engine", n.node.dockerHost(), "--state-dir", n.state().toString(),
                        "--config-dir", n.config().toString()));
                joins.add(pool.submit(() -> n.mesh(args)));
            }
            for (int i = 0; i < others.size(); i++) {
                PackagedMesh.Result done = joins.get(i).get(6, TimeUnit.MINUTES);
                if (done.exit() != 0) {
                    throw new AssertionError("mesh install --join on " + others.get(i).name + " failed\n" + done);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    public InstalledNode seat() {
        return nodes.values().iterator().next();
    }

    /** The nodes' names, the seat first. */
    public List<String> names() {
        return List.copyOf(nodes.keySet());
    }

    public InstalledNode node(String name) {
        InstalledNode n = nodes.get(name);
        if (n == null) {
            throw new AssertionError("no node " + name + " in this mesh: " + names());
        }
        return n;
    }

    public TestbedNodes.Node testbed(String name) {
        return node(name).node;
    }

    public DockerClient engine(String name) {
        node(name);
        return engines.get(name);
    }

    /** The CLI's environment an operator's config file gives: the controller's URL, the admin token, the mesh CA. */
    public Map<String, String> cliEnv() {
        return Map.copyOf(cli);
    }

    public PackagedMesh.Result mesh(String... args) {
        return PackagedMesh.run(cli, args);
    }

    /** Runs a verb that may take up to {@code limit} (one that moves the whole mesh). */
    public PackagedMesh.Result meshWithin(Duration limit, String... args) {
        return PackagedMesh.runWithin(cli, null, limit, args);
    }

    /** Runs a verb with {@code input} as its stdin. */
    public PackagedMesh.Result meshWithInput(String input, String... args) {
        return PackagedMesh.runWithInput(cli, input, args);
    }

    /** Runs a verb that must succeed; its stdout. */
    public String ok(String... args) {
        PackagedMesh.Result r = mesh(args);
        if (r.exit() != 0) {
            throw new AssertionError(r.toString());
        }
        return r.out();
    }

    /** Runs a verb with {@code -o json} that must succeed; its answer. */
    public JsonNode json(String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("-o", "json"));
        return JSON.readTree(ok(all.toArray(String[]::new)));
    }

    // ---- the agents

    public Path agentLog(String name) {
        return node(name).state().resolve("agent.log");
    }

    /** The pid of the node's agent as install (or {@link #startAgent}) recorded it. */
    public long agentPid(String name) throws IOException {
        return Long.parseLong(Files.readString(node(name).state().resolve("agent.pid")).strip());
    }

    /** SIGKILLs the node's agent, as a crash would, and waits until it is gone. Its processes and containers stay. */
    public void killAgent(String name) throws Exception {
        long pid = agentPid(name);
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        PackagedMesh.await("agent " + name + " (pid " + pid + ") is gone", Duration.ofSeconds(30),
                () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
    }

    /**
     * Starts the node's agent with the very line install starts it with where systemd does not run
     * ({@code setsid <state>/app/bin/mesh host serve --config <config>/host.env}, output appended to
     * {@code agent.log}, its pid in {@code agent.pid}), plus {@code env} (a test hook such as
     * MESH_HOST_TAKE_TEST_HOLD, or MESH_HOST_INTERVAL); waits until it answers over HTTPS.
     */
    public void startAgent(String name, Map<String, String> env) throws Exception {
        launchAgent(name, env);
        PackagedMesh.await("agent " + name + " answers over HTTPS", AGENT_UP, () -> {
            try {
                agent(name, "/v1/status");
                return true;
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** As {@link #startAgent}, without waiting for it to answer (its node's link may be down). */
    public void launchAgent(String name, Map<String, String> env) throws Exception {
        InstalledNode n = node(name);
        List<String> command = new ArrayList<>(List.of("setsid"));
        command.addAll(Launcher.of(n.state().resolve("app")).command(n.node.name(),
                List.of("host", "serve", "--config", n.config().resolve("host.env").toString())));
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(agentLog(name).toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(env);
        Process p = b.start();
        Files.writeString(n.state().resolve("agent.pid"), p.pid() + "\n");
    }

    /** SIGKILL, then {@link #startAgent} at once with {@code env}. */
    public void restartAgent(String name, Map<String, String> env) throws Exception {
        long began = System.nanoTime();
        killAgent(name);
        startAgent(name, env);
        System.out.printf("InstalledMesh: restarted %s's agent in %.1f s%n", name, secondsSince(began));
    }

    /** {@link #restartAgent} of each of {@code names} with {@code env}, side by side (each agent's JVM starts at once). */
    public void restartAgents(List<String> names, Map<String, String> env) throws Exception {
        Map<String, Map<String, String>> each = new LinkedHashMap<>();
        names.forEach(n -> each.put(n, env));
        restartAgents(each);
    }

    /** {@link #restartAgent} of each node named with its settings, side by side. */
    public void restartAgents(Map<String, Map<String, String>> envByNode) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(envByNode.size());
        try {
            List<Future<?>> restarts = new ArrayList<>();
            envByNode.forEach((name, env) -> restarts.add(pool.submit(() -> {
                restartAgent(name, env);
                return null;
            })));
            for (Future<?> r : restarts) {
                try {
                    r.get(3, TimeUnit.MINUTES);
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof Exception x) {
                        throw x;
                    }
                    throw new AssertionError(e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** GET {@code path} of the node's agent with the controller's client certificate; the answer's JSON (a non-2xx fails). */
    public JsonNode agent(String name, String path) throws IOException, InterruptedException {
        return agent(name, path, Duration.ofSeconds(30));
    }

    /** As {@link #agent(String, String)}, allowed {@code timeout} (a manifest hashes every byte of a volume). */
    public JsonNode agent(String name, String path, Duration timeout) throws IOException, InterruptedException {
        HttpResponse<String> r = agentHttp().send(HttpRequest.newBuilder(URI.create("https://" + testbed(name).address()
                + ":7701" + path)).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IOException("GET " + path + " on " + name + "'s agent: " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private synchronized HttpClient agentHttp() {
        if (agentHttp == null) {
            agentHttp = HttpClient.newBuilder().sslContext(seatTls().clientContext("controller"))
                    .connectTimeout(Duration.ofSeconds(10)).build();
        }
        return agentHttp;
    }

    /** The seat's TLS files: the mesh CA and the controller's certificate and key. */
    public TlsDir seatTls() {
        return new TlsDir(seat().state().resolve("tls"));
    }

    // ---- the controller

    /** The pid of the controller process, as the seat's agent records it. */
    public long controllerPid() throws IOException {
        return JSON.readTree(seat().state().resolve("host/processes/mesh-controller.serve.json").toFile()).get("pid").asLong();
    }

    /** GET {@code path} of the controller's API as the operator (admin token, the mesh CA alone); the answer's JSON. */
    public JsonNode controller(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = controllerHttp().send(HttpRequest.newBuilder(URI.create(cli.get("MESH_CONTROLLER") + path))
                        .header("Authorization", "Bearer " + cli.get("MESH_TOKEN")).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IOException("GET " + path + " of the controller: " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private HttpClient controllerHttp;

    private synchronized HttpClient controllerHttp() {
        if (controllerHttp == null) {
            controllerHttp = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                    .sslContext(mesh.trust.TlsContexts.trusting(mesh.trust.Pem.certificate(Path.of(cli.get("MESH_CA"))))).build();
        }
        return controllerHttp;
    }

    /**
     * The controller's JVM: the child of the supervisor's shim whose pid the seat's agent records; with
     * {@code -Dmesh.native} the native executable ({@link mesh.install.RunningMesh#NATIVE_EXECUTABLE}), not a java.
     */
    public ProcessHandle controllerJvm() throws IOException {
        long shim = controllerPid();
        String nativeName = "/" + Path.of(RunningMesh.NATIVE_EXECUTABLE).getFileName();
        return ProcessHandle.of(shim).stream().flatMap(h -> java.util.stream.Stream.concat(Stream.of(h), h.descendants()))
                .filter(h -> h.info().commandLine().orElse("").contains("controller serve") && h.info().command()
                        .map(c -> c.endsWith("/java") || c.endsWith(nativeName)).orElse(false))
                .findFirst().orElseThrow(() -> new AssertionError("no controller JVM under pid " + shim));
    }

    /** SIGKILLs the controller's JVM, as a crash would; its agent starts it again (supervision with backoff). */
    public void killController() throws Exception {
        ProcessHandle jvm = controllerJvm();
        jvm.destroyForcibly();
        PackagedMesh.await("the controller (pid " + jvm.pid() + ") is gone", Duration.ofSeconds(30), () -> !jvm.isAlive());
    }

    /**
     * Waits until the controller answers what {@code mesh node list} asks ({@code GET /v1/mesh/nodes}), polled from this
     * JVM: a CLI JVM a poll (about a cpu-second each) would take the cpu the controller's start needs.
     */
    public void awaitController(Duration timeout) throws InterruptedException {
        PackagedMesh.await("the controller answers", timeout, () -> {
            try {
                return controller("/v1/mesh/nodes").isArray();
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();   // the await's sleep then ends the wait
                return false;
            }
        });
    }

    // ---- teardown

    /** Every process of an earlier run on this node that outlived its test JVM (its folder is in its command line). */
    private static void killLeftovers(TestbedNodes.Node n) {
        String mark = "/" + marker(n);
        ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains(mark)).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Clears a main-line test-bed node before a test installs on it by hand (InstallerIT, InstallerCrashIT, ProcessBed) of what a run
     * that was stopped half-way left there: the processes whose command line names a folder beginning with
     * {@code folderPrefix}, and every container, volume and mesh network of its engine. A raise does the same for an
     * installed mesh's nodes; without it, a store's container left on n1 holds its ports and the next install's
     * preflight refuses the machine.
     */
    public static void clearNode(TestbedNodes.Node n, String folderPrefix) throws InterruptedException {
        String mark = "/" + folderPrefix;
        List<ProcessHandle> left = ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(mark)).orElse(false)).toList();
        left.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : left) {
            try {
                h.onExit().get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new AssertionError("a process left by an earlier run on " + n.name() + " did not end: " + h.pid(), e);
            }
        }
        try (DockerClient engine = TestbedNodes.client(n)) {
            wipe(engine);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Removes every container, volume and mesh network of a test-bed node's engine (a test-bed node is the tests' own). */
    private static void wipe(DockerClient engine) {
        engine.listContainersCmd().withShowAll(true).exec().forEach(c -> engine.removeContainerCmd(c.getId()).withForce(true).exec());
        var volumes = engine.listVolumesCmd().exec().getVolumes();
        if (volumes != null) {
            volumes.forEach(v -> engine.removeVolumeCmd(v.getName()).exec());
        }
        engine.listNetworksCmd().exec().stream().filter(x -> x.getLabels() != null && x.getLabels().containsKey("mesh.node"))
                .forEach(x -> engine.removeNetworkCmd(x.getId()).exec());
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    @Override
    public void close() throws Exception {
        try {
            remove();
        } finally {
            MeshRanges.SUITE.give(first);
        }
    }

    private void remove() throws Exception {
        if (Boolean.getBoolean("mesh.installed.keep")) {   // a developer's post-mortem: the next raise on these nodes removes it
            System.err.println("mesh.installed.keep: the mesh is left running, its folders: "
                    + nodes.values().stream().map(n -> n.root.toString()).toList());
            return;
        }
        long began = System.nanoTime();
        dumpThreads();
        for (InstalledNode n : nodes.values()) {
            killLeftovers(n.node);
        }
        keepLogs();
        for (InstalledNode n : nodes.values()) {
            DockerClient engine = engines.get(n.name);
            if (engine != null) {
                wipe(engine);
                engine.close();
            }
            PackagedMesh.deleteTree(n.root);
        }
        System.out.printf("InstalledMesh: removed %d nodes in %.1f s%n", nodes.size(), secondsSince(began));
    }

    /** The folder {@code -Dmesh.installed.logs} names for the nodes' logs, or null. */
    private static Path logsKept() {
        String dir = System.getProperty("mesh.installed.logs", "");
        return dir.isBlank() ? null : Path.of(dir);
    }

    /**
     * With the logs kept ({@link #keepLogs}), asks each of the mesh's servers (agents, controller: a {@code java} or the
     * native executable, never a shell) for a dump of its threads into its log (SIGQUIT; the native executable is built
     * with {@code --enable-monitoring=threaddump}) before they are killed: what a loop stuck at a failure waits on.
     */
    private void dumpThreads() throws InterruptedException {
        if (logsKept() == null) {
            return;
        }
        String nativeName = "/" + Path.of(RunningMesh.NATIVE_EXECUTABLE).getFileName();
        List<ProcessHandle> servers = ProcessHandle.allProcesses().filter(h -> nodes.values().stream()
                .anyMatch(n -> h.info().commandLine().orElse("").contains("/" + marker(n.node)))
                && h.info().command().map(c -> c.endsWith("/java") || c.endsWith(nativeName)).orElse(false)).toList();
        for (ProcessHandle h : servers) {
            try {
                new ProcessBuilder("kill", "-QUIT", Long.toString(h.pid())).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
            } catch (IOException e) {
                System.err.printf("InstalledMesh: no thread dump of pid %d: %s%n", h.pid(), e);
            }
        }
        if (!servers.isEmpty()) {
            Thread.sleep(2_000);   // each writes its dump into its log
        }
    }

    /**
     * Copies every log of the mesh's nodes (each agent's {@code agent.log}, the seat's controller, store and registry under
     * {@code state/logs/}, rotated ones too) into {@code DIR/CLASS-nK-HHMMSS/NODE/} before the folders are removed, when
     * {@code -Dmesh.installed.logs=DIR} is given: the post-mortem of a run whose failure shows only beside other classes
     * ({@code scripts/native --suite} gives it). The processes are dead by then, so each log is whole. A copy that fails
     * is said and does not fail the close. Each server's threads are dumped into its log first ({@link #dumpThreads}).
     */
    private void keepLogs() {
        if (logsKept() == null) {
            return;
        }
        Path kept = logsKept().resolve(raisedBy + "-n" + first + "-"
                + LocalTime.now().truncatedTo(ChronoUnit.SECONDS).toString().replace(":", ""));
        for (InstalledNode n : nodes.values()) {
            Path state = n.state();
            try (Stream<Path> files = Files.exists(state) ? Files.walk(state) : Stream.empty()) {
                for (Path log : files.filter(f -> f.getFileName().toString().matches(".*\\.log(\\.\\d+)?")
                        && Files.isRegularFile(f)).toList()) {
                    Path to = kept.resolve(n.name).resolve(state.relativize(log).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(log, to, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                System.err.printf("InstalledMesh: %s's logs not kept: %s%n", n.name, e);
            }
        }
        System.out.printf("InstalledMesh: the nodes' logs kept in %s%n", kept.toAbsolutePath());
    }

    /**
     * Gives the controller {@code env} beside what mesh install gave it (a setting install has no flag for,
     * such as MESH_PUSH_BUDGET), the way an operator would: the controller's manifest as the catalogue holds
     * it, with those variables, added again and pushed; the seat's agent then replaces the controller's
     * process. Waits until a new controller runs with them, answers, and a push finds nothing to send.
     */
    public void controllerEnv(Map<String, String> env) throws Exception {
        long began = System.nanoTime();
        replaceController(env);
        System.out.printf("InstalledMesh: the controller runs with %s after %.1f s%n", env.keySet(), secondsSince(began));
    }

    private void replaceController(Map<String, String> env) throws Exception {
        JsonNode manifest = json("catalogue", "show", "mesh-controller").get("manifest");
        if (!manifest.path("routes").isEmpty()) {
            throw new AssertionError("the controller's manifest has routes, which controllerEnv does not write: " + manifest);
        }
        StringBuilder yaml = new StringBuilder("module: mesh-controller\ncomponents:\n");
        manifest.get("components").properties().forEach(c -> {
            yaml.append("  ").append(c.getKey()).append(":\n");
            c.getValue().properties().forEach(f -> {
                JsonNode v = f.getValue();
                if (f.getKey().equals("env")) {
                    Map<String, String> all = new java.util.TreeMap<>(JSON.convertValue(v, new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() {
                    }));
                    all.putAll(env);
                    v = JSON.valueToTree(all);
                }
                if (f.getKey().equals("stopTimeoutSeconds")) {
                    yaml.append("    stop-timeout: ").append(v.asInt()).append("s\n");
                } else if (!v.isNull() && !(v.isContainerNode() && v.isEmpty())) {
                    yaml.append("    ").append(f.getKey()).append(": ").append(v).append('\n');   // JSON is YAML's flow style
                }
            });
        });
        Path file = Files.createTempFile(seat().root, "mesh-controller", ".yaml");
        try {
            Files.writeString(file, yaml.toString());
            ok("catalogue", "add", file.toString());
        } finally {
            Files.deleteIfExists(file);
        }
        long before = controllerPid();
        mesh("push", "--yes");   // the controller that answers it is the one replaced: it may not live to answer
        PackagedMesh.await("a new controller runs with " + env.keySet(), Duration.ofMinutes(2), () -> {
            try {
                long pid = controllerPid();
                String environ = Files.readString(Path.of("/proc/" + pid + "/environ")).replace('\0', '\n');
                return pid != before && env.entrySet().stream().allMatch(e -> environ.contains("\n" + e.getKey() + "=" + e.getValue() + "\n")
                        || environ.startsWith(e.getKey() + "=" + e.getValue() + "\n"));
            } catch (IOException | RuntimeException e) {
                return false;
            }
        });
        awaitController(Duration.ofMinutes(1));
        // a push the replaced controller never recorded is sent again (the same content): then nothing is left
        PackagedMesh.await("a push finds nothing to send", Duration.ofMinutes(1), () -> {
            try {
                PackagedMesh.Result r = mesh("push", "-o", "json");
                if (r.exit() != 0) {
                    return false;
                }
                for (JsonNode n : JSON.readTree(r.out()).get("nodes")) {
                    if (n.get("outcome").asText().equals("sent")) {
                        return false;
                    }
                }
                return true;
            } catch (IOException | RuntimeException e) {
                return false;
            }
        });
    }

    /** Seconds since {@code began} (a {@link System#nanoTime}), for the setup costs each class prints. */
    private static double secondsSince(long began) {
        return (System.nanoTime() - began) / 1e9;
    }
}
