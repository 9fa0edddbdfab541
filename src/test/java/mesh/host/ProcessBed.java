package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import mesh.bundle.RegistryFixture;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.HealthCheck;
import mesh.model.Labels;
import mesh.testbed.InstalledMesh;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;

/**
 * ProcessBed is the test bed of the process ITs: a real artifact store ({@link RegistryFixture}), a real
 * host agent ({@link AgentProcess}, the packaged mesh) on the root engine under a node name of its own,
 * listening on 127.0.0.1 (the declaration's address, where its processes listen too) — or the same on a
 * simulated node, in its network namespace, against its engine and on its address — and a bundle made
 * with {@code mesh bundle push}: a script that writes what it sees (its /etc/hosts, its volume's marker,
 * its VERSION) into a folder and serves it with busybox httpd on {@code $MESH_ADDRESS:$PORT}.
 * {@link #close} removes every process (an empty declaration), container, network and the registry.
 */
final class ProcessBed implements AutoCloseable {

    static final String ENGINE = System.getenv().getOrDefault("MESH_TEST_ENGINE", "unix:///var/run/docker.sock");
    static final String IMAGE = "mesh-test/busybox:1";
    static final String ADDRESS = "127.0.0.1";

    /** The served script; SEED marks the data it writes once into its volume, so a lost volume shows. */
    static final String SCRIPT = String.join("\n",
            "#!/bin/sh",
            "mkdir -p www",
            "cat /etc/hosts > www/hosts.txt",
            "[ -f \"$MESH_VOLUME_DATA/marker\" ] || echo \"marker-$$-$(date +%s%N)\" > \"$MESH_VOLUME_DATA/marker\"",
            "cp \"$MESH_VOLUME_DATA/marker\" www/marker.txt",
            "echo \"$VERSION\" > www/version.txt",
            "echo \"started pid $$ version $VERSION\"",
            "exec /bin/busybox httpd -f -p \"$MESH_ADDRESS:$PORT\" -h www",
            "");

    final String node = "proc-" + UUID.randomUUID().toString().substring(0, 8);
    /** The address the agent and its processes listen on: 127.0.0.1, or the simulated node's. */
    final String address;
    final Path runDir;
    final Path stateDir;
    final RegistryFixture registry;
    final DockerClient docker;
    final AgentProcess agent;
    private final Path appCopy;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long generation;
    int launches;

    ProcessBed(String what) throws IOException, InterruptedException {
        this(what, null);
    }

    /**
     * A bed on the simulated node {@code on} (null: the root engine on 127.0.0.1): the agent runs in the
     * node's network namespace against its engine, listening on its address, and the registry is a
     * container of that engine published on that address.
     */
    ProcessBed(String what, TestbedNodes.Node on) throws IOException, InterruptedException {
        if (on != null) {
            InstalledMesh.clearNode(on, "mesh-" + what + "-");   // what a stopped run of this bed left on the node
        }
        address = on == null ? ADDRESS : on.address();
        String engine = on == null ? ENGINE : on.dockerHost();
        docker = TestbedNodes.client(engine);
        runDir = Path.of("target", what, node).toAbsolutePath();
        stateDir = runDir.resolve("state");
        Files.createDirectories(stateDir);
        registry = new RegistryFixture(engine, address);
        appCopy = Files.createTempDirectory("mesh-" + what + "-");
        agent = new AgentProcess(PackagedMesh.copyApp(appCopy), node, null, stateDir, engine,
                on == null ? null : on.name(), address);
    }

    void startAgent() throws IOException, InterruptedException {
        agent.start(runDir.resolve("agent-" + (++launches) + ".log"), Duration.ofSeconds(60));
    }

    /** {@code mesh bundle push} of the script (plus {@code extra} bytes of padding), returns NAME@sha256:…. */
    String pushBundle(String name, int paddingBytes) throws IOException {
        return pushScript(name, SCRIPT, paddingBytes);
    }

    /** {@code mesh bundle push} of a folder whose entrypoint {@code run} is {@code script}. */
    String pushScript(String name, String script, int paddingBytes) throws IOException {
        Path dir = Files.createDirectories(runDir.resolve("bundle-" + name.replace('/', '-').replace(':', '-')));
        Files.writeString(dir.resolve("run"), script);
        Files.setPosixFilePermissions(dir.resolve("run"), PosixFilePermissions.fromString("rwxr-xr-x"));
        if (paddingBytes > 0) {
            byte[] noise = new byte[paddingBytes];
            new java.util.Random(42).nextBytes(noise);
            Files.write(dir.resolve("padding.bin"), noise);
        }
        PackagedMesh.Result pushed = PackagedMesh.run(Map.of(), "bundle", "push", dir.toString(), name,
                "--entrypoint", "run", "--registry", registry.url);
        assertEquals(0, pushed.exit(), pushed.toString());
        return pushed.out().strip();
    }

    /** A process component serving on {@code port}, binding {@code hosts}, with volume data and VERSION. */
    ComponentSpec process(String name, String bundle, int port, Map<String, String> hosts, String version) {
        return new ComponentSpec(node, name, null, bundle, List.of(), Map.of("PORT", Integer.toString(port), "VERSION", version),
                Map.of("data", "/data"), List.of(port), hosts, new HealthCheck("/version.txt", port, null, 20), List.of(), 5, null);
    }

    /** A container that sleeps, on the module's network. */
    ComponentSpec container(String name, String version, List<String> after) {
        return new ComponentSpec(node, name, IMAGE, null, List.of("sh", "-c", "trap 'exit 0' TERM; while :; do sleep 1; done"),
                Map.of("VERSION", version), Map.of(), List.of(), Map.of(), null, after, 5, node);
    }

    String declaration(List<ComponentSpec> components) {
        return DeclarationJson.write(new Declaration(node, address, ++generation, components, registry.url));
    }

    /** GET http://ADDRESS:PORT/PATH: the body, or null when nothing answers. */
    String get(int port, String path) throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + address + ":" + port + path))
                    .timeout(Duration.ofSeconds(3)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The pids of the shims /proc shows for this node's component (the supervisor's "one copy" count). */
    static List<Long> shims(String component) throws IOException {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    List<String> argv = List.of(Files.readString(p.resolve("cmdline")).split("\0"));
                    if (argv.size() > 5 && argv.get(0).equals("sh") && argv.get(3).equals("mesh-shim")
                            && argv.get(4).equals(component)) {
                        pids.add(Long.parseLong(p.getFileName().toString()));
                    }
                } catch (IOException gone) {
                    // ended meanwhile
                }
            }
        }
        return pids;
    }

    /** The shim's spec digest as /proc shows it (argument 5 of its command line). */
    static String shimDigest(long pid) throws IOException {
        return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).split("\0")[5];
    }

    /** Field 22 of /proc/PID/stat: the start time, which with the pid is a process's identity. */
    static long startTime(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19]);
    }

    List<Container> containers() {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(Labels.NODE, node)).exec();
    }

    @Override
    public void close() throws Exception {
        List<String> problems = new ArrayList<>();
        try {
            if (agent.alive()) {
                // above whatever generation the agent holds (a controller may have pushed to it)
                generation = Math.max(generation, agent.get("/v1/status").json().path("generation").asLong());
                agent.put(declaration(List.of()));
                PackagedMesh.await("the agent removes every process", Duration.ofSeconds(60), () -> {
                    try {
                        return Files.list(stateDir.resolve("processes")).noneMatch(p -> p.toString().endsWith(".json"));
                    } catch (IOException e) {
                        return true;
                    }
                });
            }
        } catch (Exception | AssertionError e) {
            problems.add("remove the processes: " + e);
        }
        try {
            agent.kill();
        } catch (InterruptedException e) {
            problems.add("kill the agent: " + e);
        }
        try {
            for (Container c : containers()) {
                try {
                    docker.removeContainerCmd(c.getId()).withForce(true).exec();
                } catch (com.github.dockerjava.api.exception.NotFoundException gone) {
                    // the agent's last removal finished meanwhile
                } catch (com.github.dockerjava.api.exception.ConflictException underWay) {
                    // the killed agent's last removal is still under way in the engine ("removal of container
                    // … is already in progress"): the engine finishes it; wait for that before the network goes
                    String id = c.getId();
                    PackagedMesh.await("the engine finishes removing " + id, Duration.ofSeconds(60),
                            () -> containers().stream().noneMatch(left -> left.getId().equals(id)));
                }
            }
            docker.listNetworksCmd().exec().stream().filter(n -> n.getName().equals(node))
                    .forEach(n -> docker.removeNetworkCmd(n.getId()).exec());
        } catch (RuntimeException | AssertionError e) {
            problems.add("remove the containers and network: " + e);
        } finally {
            registry.close();
            PackagedMesh.deleteTree(appCopy);
        }
        if (!problems.isEmpty()) {
            throw new AssertionError(String.join("; ", problems));
        }
    }
}
