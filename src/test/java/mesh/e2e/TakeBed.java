package mesh.e2e;

import static mesh.e2e.MeshE2EIT.json;
import static mesh.e2e.MeshE2EIT.quietly;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import mesh.testbed.InstalledMesh;
import mesh.testbed.PackagedMesh;

/**
 * TakeBed is a mesh raised for a take test by {@code mesh install} and {@code --join} ({@link InstalledMesh}:
 * HTTPS, the servers as installed), each agent restarted once with its own test-hold file
 * (MESH_HOST_TAKE_TEST_HOLD) and a pass a second, so a test pauses one side of a copy or a verify, and the
 * kills and restarts a test needs (SIGKILL to the real process; the controller is started again by the
 * seat's agent, its supervisor). {@link #close} removes all it made.
 */
final class TakeBed implements AutoCloseable {

    static final List<String> NAMES = List.of("n1", "n2", "n3");

    final InstalledMesh mesh;
    /** Each agent's hold file: {@code copy} pauses its archives after their first 64 KiB, {@code verify} its manifests. */
    final Map<String, Path> holds = new HashMap<>();
    final List<Path> temps = new ArrayList<>();
    final String prefix;

    /** Raises the mesh; {@code prefix} names its folders; {@code modules} are the test's (the fixture wipes every node whole). */
    TakeBed(String prefix, List<String> modules) throws Exception {
        this.prefix = prefix;
        mesh = InstalledMesh.raise(3);
        try {
            Path holdDir = temp(prefix + "-hold");
            for (String name : NAMES) {
                holds.put(name, holdDir.resolve(name));
                mesh.restartAgent(name, agentEnv(name));
            }
        } catch (Exception | AssertionError e) {
            close();
            throw e;
        }
    }

    private Map<String, String> agentEnv(String node) {
        return Map.of("MESH_HOST_INTERVAL", "1s", "MESH_HOST_TAKE_TEST_HOLD", holds.get(node).toString());
    }

    /** SIGKILLs the node's agent and starts it again at once with the same settings (its state dir kept). */
    void restartAgent(String node) throws Exception {
        mesh.restartAgent(node, agentEnv(node));
    }

    /** SIGKILLs the controller; the seat's agent starts it again; it answers before this returns. */
    void restartController() throws Exception {
        mesh.killController();
        mesh.awaitController(Duration.ofSeconds(90));
    }

    /** How far the node's agent's log reaches now; {@link #logSince} reads what it wrote after. */
    long logMark(String node) throws IOException {
        return Files.exists(mesh.agentLog(node)) ? Files.size(mesh.agentLog(node)) : 0;
    }

    /** The lines the node's agent logged after {@code mark} (its log as it runs now). */
    List<String> logSince(String node, long mark) throws IOException {
        byte[] all = Files.readAllBytes(mesh.agentLog(node));
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

    /** GET {@code path} of the node's agent, with the controller's certificate; the answer's JSON. */
    JsonNode agent(String node, String path) throws Exception {
        return mesh.agent(node, path);
    }

    /** The module's newest take as the controller answers it (GET /v1/mesh/takes/{module}). */
    JsonNode take(String module) throws Exception {
        return mesh.controller("/v1/mesh/takes/" + module);
    }

    /** Whether the node's engine runs the named mesh container. */
    boolean runs(String node, String component) {
        return mesh.engine(node).listContainersCmd().withLabelFilter(Map.of("mesh.node", node)).exec().stream()
                .anyMatch(c -> c.getNames()[0].equals("/" + component) && "running".equals(c.getState()));
    }

    /** The folder of a module's engine volume on the node (the test runs as root, as the agents do). */
    Path volume(String node, String name) {
        return Path.of(mesh.engine(node).inspectVolumeCmd(name).exec().getMountpoint());
    }

    /** The node's engine volumes whose names begin with {@code start}, sorted. */
    List<String> volumes(String node, String start) {
        var volumes = mesh.engine(node).listVolumesCmd().exec().getVolumes();
        return volumes == null ? List.of() : volumes.stream().map(v -> v.getName()).filter(n -> n.startsWith(start)).sorted().toList();
    }

    /** Each mesh name and the node it resolves to, as {@code mesh roster} shows it. */
    Map<String, String> roster() throws IOException {
        Map<String, String> names = new TreeMap<>();
        json(ok("roster", "-o", "json")).forEach(e -> names.put(e.get("name").asText(), e.get("node").asText()));
        return names;
    }

    PackagedMesh.Result mesh(String... args) {
        return mesh.mesh(args);
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

    @Override
    public void close() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        for (Path p : temps) {
            PackagedMesh.deleteTree(p);
        }
    }
}
