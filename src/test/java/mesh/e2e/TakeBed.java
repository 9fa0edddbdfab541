package mesh.e2e;

import static mesh.e2e.MeshE2EIT.json;
import static mesh.e2e.MeshE2EIT.quietly;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;

/**
 * TakeBed is a mesh raised for a take test: a real controller process on its own database, a real host
 * agent per simulated node (n1..n3), each agent with its own test-hold file (MESH_HOST_TAKE_TEST_HOLD), so a
 * test pauses one side of a copy or a verify, and the kills and restarts a test needs (SIGKILL to the real
 * process). {@link #close} removes all it made: processes, the database, the nodes' mesh containers and
 * volumes, its folders.
 */
final class TakeBed implements AutoCloseable {

    static final List<String> NAMES = List.of("n1", "n2", "n3");

    final String token = "op-" + UUID.randomUUID();
    final String database = "mesh_take_" + UUID.randomUUID().toString().substring(0, 8);
    final Map<String, TestbedNodes.Node> testbed = new LinkedHashMap<>();
    final Map<String, DockerClient> engines = new HashMap<>();
    final Map<String, MeshProcess> agents = new HashMap<>();
    /** Each agent's log file, as it runs now. */
    final Map<String, Path> agentLogs = new HashMap<>();
    final Map<String, Map<String, String>> agentEnv = new HashMap<>();
    /** Each agent's hold file: {@code copy} pauses its archives after their first 64 KiB, {@code verify} its manifests. */
    final Map<String, Path> holds = new HashMap<>();
    final List<Path> temps = new ArrayList<>();
    final HttpClient http = HttpClient.newHttpClient();
    final String prefix;
    Map<String, String> controllerEnv;
    MeshProcess controller;
    Map<String, String> cli;
    String controllerUrl;
    int restarts;

    /** The modules whose volumes this bed removes from the nodes (before it starts and when it closes). */
    final List<String> modules;

    /** Raises the mesh; {@code prefix} names its processes' logs; {@code modules} are the test's (see {@link #wipeNodeEngines}). */
    TakeBed(String prefix, List<String> modules) throws Exception {
        this.prefix = prefix;
        this.modules = modules;
        List<TestbedNodes.Node> nodes = TestbedNodes.up(3);
        for (int i = 0; i < 3; i++) {
            testbed.put(NAMES.get(i), nodes.get(i));
            engines.put(NAMES.get(i), TestbedNodes.client(nodes.get(i)));
        }
        wipeNodeEngines();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
        Path holdDir = temp(prefix + "-hold");
        int port = PackagedMesh.freePort();
        controllerUrl = "http://127.0.0.1:" + port;
        controllerEnv = Map.of(
                "MESH_STORE_URL", "jdbc:postgresql://127.0.0.1:5432/" + database,
                "MESH_STORE_USER", "mesh", "MESH_STORE_PASSWORD", "mesh",
                "MESH_CONTROLLER_TOKEN", token, "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port);
        controller = MeshProcess.serve(prefix + "-controller", null, controllerEnv, "controller", "serve");
        cli = Map.of("MESH_CONTROLLER", controllerUrl, "MESH_TOKEN", token);
        PackagedMesh.await("the controller answers", Duration.ofSeconds(60), () -> quietly(() -> mesh("node", "list").exit() == 0));
        for (String name : NAMES) {
            JsonNode added = json(ok("node", "add", name, "--address", testbed.get(name).address(), "-o", "json"));
            TestbedNodes.Node node = testbed.get(name);
            holds.put(name, holdDir.resolve(name));
            agentEnv.put(name, Map.of(
                    "MESH_HOST_NODE", name, "MESH_HOST_LISTEN", node.address() + ":7701", "MESH_HOST_ENGINE", node.dockerHost(),
                    "MESH_HOST_STATE_DIR", temp(prefix + "-" + name).toString(), "MESH_HOST_INTERVAL", "1s",
                    "MESH_HOST_TAKE_TEST_HOLD", holds.get(name).toString()));
            agents.put(name, MeshProcess.serve(prefix + "-agent-" + name, node.name(), agentEnv.get(name), "host", "serve"));
            agentLogs.put(name, MeshProcess.LOGS.resolve(prefix + "-agent-" + name + ".log"));
        }
        PackagedMesh.await("every agent answers", Duration.ofSeconds(60), () -> quietly(() -> mesh("status").out().contains("never pushed")
                && !mesh("status").out().contains("did not answer")));
    }

    /** SIGKILLs the node's agent and starts it again at once with the same settings (its state dir kept). */
    void restartAgent(String node) throws Exception {
        agents.get(node).kill();
        String name = prefix + "-agent-" + node + "-" + (++restarts);
        agents.put(node, MeshProcess.serve(name, testbed.get(node).name(), agentEnv.get(node), "host", "serve"));
        agentLogs.put(node, MeshProcess.LOGS.resolve(name + ".log"));
    }

    /** SIGKILLs the controller and starts it again with the same settings; it answers before this returns. */
    void restartController() throws Exception {
        controller.kill();
        controller = MeshProcess.serve(prefix + "-controller-" + (++restarts), null, controllerEnv, "controller", "serve");
        PackagedMesh.await("the controller answers again", Duration.ofSeconds(60), () -> quietly(() -> mesh("node", "list").exit() == 0));
    }

    /** How far the node's agent's log reaches now; {@link #logSince} reads what it wrote after. */
    long logMark(String node) throws IOException {
        return Files.exists(agentLogs.get(node)) ? Files.size(agentLogs.get(node)) : 0;
    }

    /** The lines the node's agent logged after {@code mark} (its log as it runs now). */
    List<String> logSince(String node, long mark) throws IOException {
        byte[] all = Files.readAllBytes(agentLogs.get(node));
        return new String(all, (int) Math.min(mark, all.length), (int) Math.max(0, all.length - mark),
                java.nio.charset.StandardCharsets.UTF_8).lines().toList();
    }

    /** Has the node's agent hold {@code word} ({@code copy}, {@code verify}) from now on. */
    void hold(String node, String word) throws IOException {
        Files.writeString(holds.get(node), word);
    }

    void release() throws IOException {
        for (Path p : holds.values()) {
            Files.deleteIfExists(p);
        }
    }

    /** GET {@code path} of the node's agent, with its token; the answer's JSON. */
    JsonNode agent(String node, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + testbed.get(node).address() + ":7701" + path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + " on " + node + ": " + r.statusCode() + " " + r.body());
        }
        return json(r.body());
    }

    /** The module's newest take as the controller answers it (GET /v1/mesh/takes/{module}). */
    JsonNode take(String module) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(controllerUrl + "/v1/mesh/takes/" + module))
                .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET the take of " + module + ": " + r.statusCode() + " " + r.body());
        }
        return json(r.body());
    }

    /** Whether the node's engine runs the named mesh container. */
    boolean runs(String node, String component) {
        return engines.get(node).listContainersCmd().withLabelFilter(Map.of("mesh.node", node)).exec().stream()
                .anyMatch(c -> c.getNames()[0].equals("/" + component) && "running".equals(c.getState()));
    }

    /** The folder of a module's engine volume on the node (the test runs as root, as the agents do). */
    Path volume(String node, String name) {
        return Path.of(engines.get(node).inspectVolumeCmd(name).exec().getMountpoint());
    }

    /** The node's engine volumes whose names begin with {@code start}, sorted. */
    List<String> volumes(String node, String start) {
        var volumes = engines.get(node).listVolumesCmd().exec().getVolumes();
        return volumes == null ? List.of() : volumes.stream().map(v -> v.getName()).filter(n -> n.startsWith(start)).sorted().toList();
    }

    /** Each mesh name and the node it resolves to, as {@code mesh roster} shows it. */
    Map<String, String> roster() throws IOException {
        Map<String, String> names = new TreeMap<>();
        json(ok("roster", "-o", "json")).forEach(e -> names.put(e.get("name").asText(), e.get("node").asText()));
        return names;
    }

    PackagedMesh.Result mesh(String... args) {
        return PackagedMesh.run(cli, args);
    }

    String ok(String... args) {
        PackagedMesh.Result r = mesh(args);
        assertEquals(0, r.exit(), () -> "mesh " + String.join(" ", args) + ": " + r);
        return r.out();
    }

    Path temp(String start) throws IOException {
        Path p = Files.createTempDirectory(start);
        temps.add(p);
        return p;
    }

    /**
     * Watches every 200 ms that the component runs on one node at most; {@link Watch#close} stops it and
     * says the first moment it ran on two (null: never).
     */
    Watch watch(String component) {
        return new Watch(this, component);
    }

    /** Watch is a running check that a component never runs on two nodes at once. */
    static final class Watch implements AutoCloseable {
        private final AtomicReference<String> twice = new AtomicReference<>();
        private final AtomicBoolean watching = new AtomicBoolean(true);
        private final Thread thread;
        int looks;

        Watch(TakeBed bed, String component) {
            thread = Thread.ofVirtual().start(() -> {
                while (watching.get()) {
                    List<String> on = NAMES.stream().filter(n -> quietly(() -> bed.runs(n, component))).toList();
                    looks++;
                    if (on.size() > 1) {
                        twice.compareAndSet(null, component + " ran on " + on + " at once");
                    }
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        /** Stops watching; the first time the component ran on two nodes, or null. */
        String twice() throws InterruptedException {
            watching.set(false);
            thread.join();
            return twice.get();
        }

        @Override
        public void close() throws InterruptedException {
            watching.set(false);
            thread.join();
        }
    }

    /** Removes the containers, volumes and networks labelled for this bed's nodes, and any volume of its modules. */
    void wipeNodeEngines() {
        engines.forEach((name, docker) -> {
            for (Container c : docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", name)).exec()) {
                docker.removeContainerCmd(c.getId()).withForce(true).exec();
            }
            var volumes = docker.listVolumesCmd().exec().getVolumes();
            if (volumes != null) {
                volumes.stream().filter(v -> modules.stream().anyMatch(m -> v.getName().startsWith(m + "_")) || v.getLabels() != null
                                && name.equals(v.getLabels().get("mesh.node")))
                        .forEach(v -> docker.removeVolumeCmd(v.getName()).exec());
            }
            docker.listNetworksCmd().exec().stream()
                    .filter(n -> n.getLabels() != null && name.equals(n.getLabels().get("mesh.node")))
                    .forEach(n -> docker.removeNetworkCmd(n.getId()).exec());
        });
    }

    @Override
    public void close() throws Exception {
        for (MeshProcess agent : agents.values()) {
            agent.close();
        }
        if (controller != null) {
            controller.close();
        }
        wipeNodeEngines();
        for (DockerClient docker : engines.values()) {
            docker.close();
        }
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("drop database if exists " + database + " with (force)");
        }
        for (Path p : temps) {
            PackagedMesh.deleteTree(p);
        }
    }
}
