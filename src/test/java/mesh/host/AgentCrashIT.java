package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.Labels;
import mesh.model.ContainerRequest;
import mesh.model.SpecDigest;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * AgentCrashIT shows that the real host agent, SIGKILLed in the middle of an apply and started again on the
 * same state dir, converges to the declaration with no duplicate or leftover container and every
 * volume's data intact (docs/design.md, invariants 6, 7 and 8).
 *
 * <p>Ten components of one module, each with its own volume and the module's shared volume, each
 * writing a random marker into both only if it is absent, so a lost or recreated volume shows as a
 * changed marker, and noting every start and clean stop in a life log, so a double replace or a
 * stop that ended in SIGKILL shows too. {@code after} chains with health commands make the apply
 * ordered and long enough for the kills to land mid-replace. Every round pushes a generation that replaces every component,
 * kills the agent after a different delay, restarts it and checks the engine behind its back.
 *
 * <p>Evidence for a post-mortem is kept under {@code target/agent-crash/<node>/}: each launch's
 * log, the state dir, and {@code rounds.txt} with the engine's state at every kill.
 */
class AgentCrashIT {

    static final String ENGINE = System.getenv().getOrDefault("MESH_TEST_ENGINE", "unix:///var/run/docker.sock");
    static final String IMAGE = "mesh-test/busybox:1";
    static final String TEST_LABEL = "mesh.test";
    static final int COMPONENTS = 10;
    /**
     * Kill points, one round each, as fractions of an uninterrupted replace-everything apply measured
     * in the same run (fixed milliseconds land in different phases on a loaded or an idle machine).
     */
    static final double[] KILL_AT = {0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.95};
    /** dependant → what it starts after; c01, c02, c04 and c05 carry a health command. */
    static final Map<Integer, List<Integer>> AFTER = Map.of(
            2, List.of(1),
            3, List.of(2),
            5, List.of(4),
            6, List.of(4),
            10, List.of(5));
    static final Set<Integer> HEALTH = Set.of(1, 2, 4, 5);
    static final Duration AGENT_START = Duration.ofSeconds(60);
    static final Duration CONVERGE = Duration.ofSeconds(60);

    static String node;
    static String module;
    static Path runDir;
    static Path stateDir;
    static Path appCopy;
    static DockerClient docker;
    static AgentProcess agent;
    static int launches;
    static final List<String> report = new ArrayList<>();

    @BeforeAll
    static void setUp() throws IOException {
        node = "crash-" + UUID.randomUUID().toString().substring(0, 8);
        module = node;
        runDir = Path.of("target", "agent-crash", node).toAbsolutePath();
        stateDir = runDir.resolve("state");
        Files.createDirectories(stateDir);
        docker = TestbedNodes.client(ENGINE);
        try {
            docker.pingCmd().exec();
            docker.inspectImageCmd(IMAGE).exec();
        } catch (RuntimeException e) {
            fail("no Docker engine with " + IMAGE + " at " + ENGINE + " (run `scripts/testbed up`): " + e.getMessage());
        }
        appCopy = Files.createTempDirectory("mesh-agent-crash-");
        agent = new AgentProcess(PackagedMesh.copyApp(appCopy), node, "crash-token-" + node, stateDir, ENGINE);
    }

    @AfterAll
    static void tearDown() throws IOException {
        List<String> problems = new ArrayList<>();
        attempt(problems, "kill the agent", () -> {
            if (agent != null) {
                agent.kill();
            }
        });
        attempt(problems, "delete the agent's copy", () -> PackagedMesh.deleteTree(appCopy));
        if (docker == null) {
            return;
        }
        for (Container c : containers(Labels.NODE + "=" + node)) {
            attempt(problems, "remove container " + name(c), () -> docker.removeContainerCmd(c.getId()).withForce(true).exec());
        }
        for (Container c : containers(TEST_LABEL + "=" + node)) {
            attempt(problems, "remove reader " + c.getId(), () -> docker.removeContainerCmd(c.getId()).withForce(true).exec());
        }
        attempt(problems, "remove networks", () -> docker.listNetworksCmd().exec().stream()
                .filter(n -> n.getName().equals(module)
                        || (n.getLabels() != null && node.equals(n.getLabels().get(Labels.NODE))))
                .forEach(n -> docker.removeNetworkCmd(n.getId()).exec()));
        attempt(problems, "remove volumes", () -> docker.listVolumesCmd().exec().getVolumes().stream()
                .filter(v -> v.getName().startsWith(module + "_")
                        || (v.getLabels() != null && node.equals(v.getLabels().get(Labels.NODE))))
                .forEach(v -> docker.removeVolumeCmd(v.getName()).exec()));
        if (runDir != null) {
            Files.write(runDir.resolve("rounds.txt"), report);
        }
        try {
            docker.close();
        } catch (IOException ignored) {
            // going away anyway
        }
        if (!problems.isEmpty()) {
            System.err.println("AgentCrashIT cleanup problems for node " + node + ":\n  " + String.join("\n  ", problems));
        }
    }

    @Test
    void convergesAfterSigkillAtAnyPointOfAnApplyWithNoDuplicatesAndDataIntact() throws Exception {
        long total = System.nanoTime();
        agent.start(nextLog(), AGENT_START);
        note("node %s, %d components, agent log and state under %s", node, COMPONENTS, runDir);

        // generation 1: create everything, read the markers every later round must still find
        long t = System.nanoTime();
        assertEquals(201, agent.put(declaration(1)).status());
        JsonNode status = agent.awaitConverged(1, CONVERGE);
        note("generation 1 (create all): converged in %d ms", ms(t));
        status = agent.awaitSettled(1, CONVERGE);   // running means healthy: wait out "starting" (docs/health.md)
        assertConverged(1, status);
        Map<String, String> markers = markers(volumeFiles(1));
        assertEquals(2 * COMPONENTS, markers.size(), () -> "expected a marker per component in its own and the shared volume: " + markers);
        markers.forEach((file, content) -> assertEquals(37, base64Length(content),
                () -> file + " does not hold a uuid line: " + content));
        assertVolumes(1, markers);

        // generation 2: the same replace-everything apply, not interrupted, to know how long one takes
        t = System.nanoTime();
        assertEquals(201, agent.put(declaration(2)).status());
        status = agent.awaitConverged(2, CONVERGE);
        long reference = ms(t);
        note("generation 2 (replace all, no kill, reference): converged in %d ms", reference);
        status = agent.awaitSettled(2, CONVERGE);
        assertConverged(2, status);
        assertVolumes(2, markers);

        note("%-5s %-4s %-8s %-8s %-95s %-22s %-9s %-10s %s", "round", "gen", "PUT 201", "kill at",
                "engine right after the kill (containers made by this generation, * = not started / older ones)",
                "agent log before kill", "restart", "converge", "round");
        for (int round = 1; round <= KILL_AT.length; round++) {
            crashRound(round, round + 2, Math.round(KILL_AT[round - 1] * reference), markers);
        }
        note("%d rounds, total %d ms (uninterrupted replace-all apply: %d ms)", KILL_AT.length, ms(total), reference);
    }

    /**
     * crashRound pushes generation g (a replace of every component), SIGKILLs the agent {@code delay}
     * ms after the 201, notes how far the apply got, restarts the agent and checks what it converged to.
     */
    void crashRound(int round, long generation, long delay, Map<String, String> markers) throws Exception {
        long roundStart = System.nanoTime();
        Path killedLog = currentLog();

        AgentProcess.Answer put = agent.put(declaration(generation));
        assertEquals(201, put.status(), () -> "push of generation " + generation + ": " + put.body());
        long putMs = ms(roundStart);
        if (delay > 0) {
            Thread.sleep(delay);
        }
        long pid = agent.pid();
        agent.kill();
        long killedAt = ms(roundStart);
        Snapshot snapshot = engineState(generation);
        String atKill = snapshot.summary();
        String logged = replacesLogged(killedLog, generation);
        String where = "round " + round + " (agent pid " + pid + " killed " + delay + " ms after the 201 for generation "
                + generation + ", " + killedAt + " ms after the push; engine at kill: " + atKill + ")";

        long restart = System.nanoTime();
        agent.start(nextLog(), AGENT_START);
        long restartMs = ms(restart);
        long converge = System.nanoTime();
        JsonNode after;
        try {
            after = agent.awaitConverged(generation, CONVERGE);
        } catch (AssertionError e) {
            note("round %d: NOT CONVERGED; engine now: %s", round, engineState(generation).summary());
            throw new AssertionError(where + ": " + e.getMessage() + "; agent logs: " + runDir, e);
        }
        long convergeMs = ms(converge);
        note("%-5d %-4d %-8s %-8s %-95s %-22s %-9s %-10s %d ms", round, generation, putMs + " ms", "+" + delay + " ms",
                atKill, logged, restartMs + " ms", convergeMs + " ms", ms(roundStart));
        try {
            after = agent.awaitSettled(generation, CONVERGE);
            assertConverged(generation, after);
            assertVolumes(generation, markers);
            Map<String, String> now = new TreeMap<>();
            containers(Labels.NODE + "=" + node).forEach(c -> now.put(name(c), c.getId()));
            snapshot.fresh().forEach((name, id) -> assertEquals(id, now.get(name), name + " was already made by generation "
                    + generation + " before the kill, yet the restarted agent replaced it"));
        } catch (AssertionError e) {
            throw new AssertionError(where + ": " + e.getMessage() + "; agent logs: " + runDir, e);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // the declaration

    static String cname(int i) {
        return String.format("%s-c%02d", node, i);
    }

    static String key(int i) {
        return String.format("c%02d", i);
    }

    /** Generation {@code g}: env ROUND=g changes every component's digest, so every push replaces all. */
    static String declaration(long g) throws JsonProcessingException {
        List<Map<String, Object>> components = new ArrayList<>();
        for (int i = 1; i <= COMPONENTS; i++) {
            String k = key(i);
            // PID 1 traps TERM (else a stop waits out the grace period) and notes a clean stop; c01 takes
            // a second to stop, like a database, so some kills land inside a graceful stop.
            String onTerm = "trap '" + (i == 1 ? "sleep 1; " : "") + "echo \"stop $ROUND $(hostname)\" >> /data/life.log; exit 0' TERM; ";
            String started = "echo \"start $ROUND $(hostname)\" >> /data/life.log; ";
            String writeOnce = "for d in /data /shared; do [ -f $d/" + k + ".id ] || { cat /proc/sys/kernel/random/uuid > $d/"
                    + k + ".tmp && mv $d/" + k + ".tmp $d/" + k + ".id; }; done; ";
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("module", module);
            c.put("name", cname(i));
            c.put("image", IMAGE);
            c.put("args", List.of("sh", "-c", onTerm + started + writeOnce + "while :; do sleep 1 & wait $!; done"));
            c.put("env", Map.of("ROUND", Long.toString(g)));
            c.put("volumes", Map.of(k, "/data", "shared", "/shared"));
            if (HEALTH.contains(i)) {
                c.put("health", Map.of("command", List.of("sh", "-c", "[ -f /data/" + k + ".id ] && [ -f /shared/" + k + ".id ]"),
                        "timeoutSeconds", 30));
            }
            if (AFTER.containsKey(i)) {
                c.put("after", AFTER.get(i).stream().map(AgentCrashIT::cname).toList());
            }
            c.put("stopTimeoutSeconds", i == 1 ? 5 : 2);
            c.put("network", module);
            components.add(c);
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("node", node);
        d.put("generation", g);
        d.put("components", components);
        return AgentProcess.JSON.writeValueAsString(d);
    }

    // ---------------------------------------------------------------------------------------------
    // what the engine says, behind the agent's back

    /** Everything "converged at generation g" must mean, checked on the agent's status and the engine itself. */
    static void assertConverged(long g, JsonNode status) throws Exception {
        Declaration d = DeclarationJson.parse(declaration(g));
        Set<String> names = d.components().stream().map(ComponentSpec::name).collect(Collectors.toCollection(TreeSet::new));

        Map<String, String> states = new TreeMap<>();
        status.path("components").forEach(c -> states.put(c.path("name").asText(), c.path("state").asText()));
        assertEquals(names.stream().collect(Collectors.toMap(n -> n, n -> "running", (a, b) -> a, TreeMap::new)), states,
                "agent status components at generation " + g + ": " + status);

        List<Container> owned = containers(Labels.NODE + "=" + node);
        List<String> ownedNames = owned.stream().map(AgentCrashIT::name).sorted().toList();
        assertEquals(List.copyOf(names), ownedNames,
                "containers labelled " + Labels.NODE + "=" + node + " (exactly one per declared name, nothing else)");
        List<String> byName = docker.listContainersCmd().withShowAll(true).withNameFilter(List.of(node + "-c")).exec()
                .stream().map(AgentCrashIT::name).sorted().toList();
        assertEquals(List.copyOf(names), byName, "containers named " + node + "-c*, labelled or not");

        Map<String, Instant> startedAt = new TreeMap<>();
        for (ComponentSpec spec : d.components()) {
            InspectContainerResponse c = docker.inspectContainerCmd(spec.name()).exec();
            Map<String, String> labels = c.getConfig().getLabels();
            assertTrue(Boolean.TRUE.equals(c.getState().getRunning()), spec.name() + " is not running: " + c.getState());
            assertEquals(SpecDigest.of(ContainerRequest.of(spec, d.address())), labels.get(Labels.DIGEST), spec.name() + " digest at generation " + g);
            assertEquals(Long.toString(g), labels.get(Labels.GENERATION), spec.name() + " was not created by generation " + g);
            assertEquals(0, c.getRestartCount() == null ? 0 : c.getRestartCount(), spec.name() + " restarted by the engine");
            startedAt.put(spec.name(), Instant.parse(c.getState().getStartedAt()));
        }
        for (ComponentSpec spec : d.components()) {
            for (String dep : spec.after()) {
                assertTrue(!startedAt.get(spec.name()).isBefore(startedAt.get(dep)),
                        spec.name() + " started at " + startedAt.get(spec.name()) + ", before " + dep
                                + " (which it starts after) at " + startedAt.get(dep));
            }
        }

        Set<String> volumes = new TreeSet<>();
        docker.listVolumesCmd().exec().getVolumes().stream().map(v -> v.getName())
                .filter(v -> v.startsWith(module + "_")).forEach(volumes::add);
        Set<String> expectedVolumes = new TreeSet<>();
        IntStream.rangeClosed(1, COMPONENTS).forEach(i -> expectedVolumes.add(module + "_" + key(i)));
        expectedVolumes.add(module + "_shared");
        assertEquals(expectedVolumes, volumes, "the module's volumes");

        List<Long> recorded;
        try (Stream<Path> files = Files.list(stateDir.resolve("declarations"))) {
            recorded = files.map(p -> p.getFileName().toString()).filter(f -> f.matches("\\d{12}\\.json"))
                    .map(f -> Long.parseLong(f.substring(0, 12))).sorted().toList();
        }
        assertEquals(LongStream.rangeClosed(1, g).boxed().toList(), recorded,
                "generations recorded under " + stateDir.resolve("declarations"));
        JsonNode kept = agent.get("/v1/declarations").json();
        assertEquals(g, kept.size(), "GET /v1/declarations: " + kept);
    }

    /**
     * Every file in every volume of the module, as base64 of its bytes, read by a throwaway
     * container that mounts them (after checking each exists, so the reader creates none), once
     * generation g's containers have written what they write at start.
     */
    static Map<String, String> volumeFiles(long g) throws InterruptedException {
        List<Bind> binds = new ArrayList<>();
        for (int i = 1; i <= COMPONENTS; i++) {
            docker.inspectVolumeCmd(module + "_" + key(i)).exec();
            binds.add(new Bind(module + "_" + key(i), new Volume("/v/" + key(i))));
        }
        docker.inspectVolumeCmd(module + "_shared").exec();
        binds.add(new Bind(module + "_shared", new Volume("/v/shared")));
        // A component without a health check counts as ready once it runs, maybe a moment before its
        // shell wrote its start line and markers: wait (bounded, 10 s) for them. A lost volume still
        // shows, as a new marker; a missing start line still shows, in the life log.
        String script = "i=0; while { [ $(ls /v/*/*.id 2>/dev/null | wc -l) -lt " + 2 * COMPONENTS + " ] "
                + "|| [ $(cat /v/c*/life.log 2>/dev/null | grep -c '^start " + g + " ') -lt " + COMPONENTS + " ]; } "
                + "&& [ $i -lt 100 ]; do usleep 100000; i=$((i+1)); done; "
                + "for f in /v/*/*; do printf '%s ' \"$f\"; base64 \"$f\" | tr -d '\\n'; echo; done";
        String id = docker.createContainerCmd(IMAGE).withCmd("sh", "-c", script)
                .withLabels(Map.of(TEST_LABEL, node))
                .withHostConfig(HostConfig.newHostConfig().withBinds(binds)).exec().getId();
        try {
            docker.startContainerCmd(id).exec();
            int code = docker.waitContainerCmd(id).start().awaitStatusCode(60, TimeUnit.SECONDS);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            docker.logContainerCmd(id).withStdOut(true).withStdErr(true).exec(new ResultCallback.Adapter<Frame>() {
                @Override
                public void onNext(Frame frame) {
                    out.writeBytes(frame.getPayload());
                }
            }).awaitCompletion(30, TimeUnit.SECONDS);
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, "marker reader failed: " + text);
            Map<String, String> files = new TreeMap<>();
            text.lines().filter(l -> !l.isBlank()).forEach(l -> {
                int space = l.indexOf(' ');
                files.put(l.substring(0, space), l.substring(space + 1));
            });
            return files;
        } finally {
            docker.removeContainerCmd(id).withForce(true).exec();
        }
    }

    /** The engine right after a kill: a one-line summary, and the containers generation g had already made. */
    record Snapshot(String summary, Map<String, String> fresh) {
    }

    /** The write-once markers among the volume files. */
    static Map<String, String> markers(Map<String, String> files) {
        return files.entrySet().stream().filter(e -> e.getKey().endsWith(".id"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
    }

    /**
     * The volumes after generation g converged: every marker byte-identical to generation 1's, no other
     * file but the life logs, and each component's life log exactly
     * {@code start 1 h1, stop 1 h1, start 2 h2, ..., start g hg}: one container per generation, each
     * stopped cleanly (its TERM trap ran, no SIGKILL) before the next one started, and the last one
     * is the container running now.
     */
    static void assertVolumes(long g, Map<String, String> markers) throws InterruptedException {
        Map<String, String> files = volumeFiles(g);
        assertEquals(markers, markers(files), "volume data (write-once markers) changed at generation " + g);
        Set<String> expectedFiles = new TreeSet<>(markers.keySet());
        IntStream.rangeClosed(1, COMPONENTS).forEach(i -> expectedFiles.add("/v/" + key(i) + "/life.log"));
        assertEquals(expectedFiles, files.keySet(), "files in the module's volumes");
        for (int i = 1; i <= COMPONENTS; i++) {
            String text = new String(java.util.Base64.getDecoder().decode(files.get("/v/" + key(i) + "/life.log")),
                    StandardCharsets.UTF_8);
            List<String> lines = text.lines().toList();
            String current = docker.inspectContainerCmd(cname(i)).exec().getId().substring(0, 12);
            String why = cname(i) + " life log at generation " + g + " (running now: " + current + "):\n" + text;
            assertEquals(2 * g - 1, lines.size(), why);
            for (int k = 1; k <= g; k++) {
                String[] start = lines.get(2 * (k - 1)).split(" ");
                assertEquals(List.of("start", Long.toString(k)), List.of(start[0], start[1]), why);
                if (k < g) {
                    assertEquals("stop " + k + " " + start[2], lines.get(2 * k - 1),
                            "container " + start[2] + " of generation " + k + " was not stopped cleanly: " + why);
                } else {
                    assertEquals(current, start[2], why);
                }
            }
        }
    }

    /** What the engine holds right now for generation g: how far the interrupted apply got. */
    static Snapshot engineState(long g) {
        Map<String, String> made = new TreeMap<>();
        List<Container> all = containers(Labels.NODE + "=" + node);
        Set<String> present = new TreeSet<>();
        Set<String> freshKeys = new TreeSet<>();
        int fresh = 0;
        int freshRunning = 0;
        int old = 0;
        int oldRunning = 0;
        for (Container c : all) {
            present.add(name(c));
            boolean running = "running".equals(c.getState());
            if (Long.toString(g).equals(c.getLabels().get(Labels.GENERATION))) {
                fresh++;
                made.put(name(c), c.getId());
                freshKeys.add(name(c).substring(node.length() + 1) + (running ? "" : "*"));
                freshRunning += running ? 1 : 0;
            } else {
                old++;
                oldRunning += running ? 1 : 0;
            }
        }
        List<String> absent = IntStream.rangeClosed(1, COMPONENTS).filter(i -> !present.contains(cname(i)))
                .mapToObj(AgentCrashIT::key).toList();
        return new Snapshot(String.format("new %d (%d up) %s | old %d (%d up) | absent %s", fresh, freshRunning,
                freshKeys.isEmpty() ? "-" : String.join(",", freshKeys), old, oldRunning,
                absent.isEmpty() ? "-" : String.join(",", absent)), made);
    }

    /** How many replaces of generation g the killed agent logged as done, and whether it said it accepted g. */
    static String replacesLogged(Path log, long g) throws IOException {
        List<String> lines = Files.readAllLines(log);
        int accepted = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("accepted generation " + g)) {
                accepted = i;
            }
        }
        if (accepted < 0) {
            return "not yet 'accepted'";
        }
        long replaced = lines.subList(accepted, lines.size()).stream().filter(l -> l.contains(": replaced;")).count();
        return replaced + " replaced";
    }

    static List<Container> containers(String label) {
        String[] kv = label.split("=", 2);
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(kv[0], kv[1])).exec();
    }

    static String name(Container c) {
        return c.getNames() == null || c.getNames().length == 0 ? c.getId() : c.getNames()[0].replaceFirst("^/", "");
    }

    // ---------------------------------------------------------------------------------------------
    // small helpers

    static Path currentLog() {
        return runDir.resolve(String.format("agent-%02d.log", launches));
    }

    static Path nextLog() {
        launches++;
        return currentLog();
    }

    static void note(String format, Object... args) {
        String line = String.format(format, args);
        report.add(line);
        System.out.println("AgentCrashIT " + line);
    }

    static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }

    static int base64Length(String b64) {
        return java.util.Base64.getDecoder().decode(b64).length;
    }

    interface Step {
        void run() throws Exception;
    }

    static void attempt(List<String> problems, String what, Step step) {
        try {
            step.run();
        } catch (Exception | AssertionError e) {
            problems.add(what + ": " + e);
        }
    }
}
