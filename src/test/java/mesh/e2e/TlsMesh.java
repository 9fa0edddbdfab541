package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import mesh.trust.MeshCa;
import mesh.trust.TlsDir;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * TlsMesh is the raise TlsIT and RotateIT share: a mesh CA made here, a controller process serving
 * HTTPS with its certificate (and, when asked, the CA's key, as the seat's does), a database of its
 * own, and host agents on test-bed nodes, each serving HTTPS with its certificate and taking calls on
 * the controller's certificate alone; the packaged CLI talks to it with the CA as its only trust.
 * Each subclass names its nodes with its own prefix ({@link #name}) and may use its own agent port,
 * so two of them never touch each other's containers; everything is removed after the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TlsMesh {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    final String prefix;
    final int agentPort;
    final String admin = UUID.randomUUID().toString().replace("-", "");
    final String database;
    final String logPrefix;
    final Map<String, MeshProcess> agents = new LinkedHashMap<>();
    final Map<String, Path> states = new HashMap<>();
    /** The answer of {@code mesh node add -o json} for each node, by name. */
    final Map<String, JsonNode> added = new LinkedHashMap<>();
    List<TestbedNodes.Node> nodes;
    MeshProcess controller;
    Path dir;
    TlsDir tls;
    MeshCa ca;
    String controllerUrl;
    int port;
    PGSimpleDataSource store;

    /** @param prefix the nodes' and the database's prefix ({@code tls}, {@code rot}); @param agentPort the agents' port */
    TlsMesh(String prefix, int agentPort) {
        this.prefix = prefix;
        this.agentPort = agentPort;
        String id = UUID.randomUUID().toString().substring(0, 8);
        this.database = "mesh_" + prefix + "_" + id;
        this.logPrefix = prefix + "-" + id;
    }

    String name(TestbedNodes.Node n) {
        return prefix + n.name();
    }

    /**
     * Raises {@code count} nodes' agents and the controller: each agent's certificate issued as of
     * {@code issued.apply(node)} (a year's validity from then), the controller with the CA's key when
     * {@code withCaKey}; every node added ({@code mesh node add}, its agent URL named only when the
     * port is not the default 7701) and its agent started. Modules are the subclass's.
     */
    void raise(int count, boolean withCaKey, Function<TestbedNodes.Node, Instant> issued) throws Exception {
        nodes = TestbedNodes.up(count);
        wipe();
        dir = Files.createTempDirectory("mesh-" + prefix + "-it");
        Instant now = Instant.now();
        tls = new TlsDir(dir.resolve("mesh"));
        ca = tls.ensureCa(prefix + "-it", now);
        tls.ensureIssued(ca, "controller", MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("127.0.0.1", "localhost"), now);
        for (TestbedNodes.Node n : nodes) {
            tls.ensureIssued(ca, name(n), MeshCa.Role.AGENT, name(n), List.of(name(n), n.address()), issued.apply(n));
        }
        try (var c = java.sql.DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
        String url = "jdbc:postgresql://127.0.0.1:5432/" + database;
        store = new PGSimpleDataSource();
        store.setURL(url);
        store.setUser("mesh");
        store.setPassword("mesh");
        port = PackagedMesh.freePort();
        controllerUrl = "https://127.0.0.1:" + port;
        Map<String, String> env = new HashMap<>(Map.of("MESH_STORE_URL", url, "MESH_STORE_USER", "mesh",
                "MESH_STORE_PASSWORD", "mesh", "MESH_CONTROLLER_TOKEN", admin, "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port));
        if (withCaKey) {
            env.put("MESH_CA_KEY", tls.caKey().toString());
        }
        env.putAll(tls.serveEnv("controller"));
        controller = MeshProcess.serve(logPrefix + "-controller", null, env, "controller", "serve");
        PackagedMesh.await("the controller answers over HTTPS", Duration.ofSeconds(60), () -> cli("node", "list").exit() == 0);
        for (TestbedNodes.Node n : nodes) {
            List<String> add = new java.util.ArrayList<>(List.of("node", "add", name(n), "--address", n.address(), "-o", "json"));
            if (agentPort != 7701) {
                add.addAll(List.of("--agent", "https://" + n.address() + ":" + agentPort));
            }
            added.put(name(n), JSON.readTree(ok(add.toArray(String[]::new))));
            states.put(name(n), Files.createTempDirectory("mesh-" + prefix + "-state"));
            startAgent(n, tls);
        }
    }

    /** An agent with its certificate from {@code files} and no MESH_HOST_TOKEN at all: it takes calls on the controller's certificate alone. */
    void startAgent(TestbedNodes.Node n, TlsDir files) throws IOException {
        Map<String, String> env = new HashMap<>(Map.of("MESH_HOST_NODE", name(n),
                "MESH_HOST_LISTEN", n.address() + ":" + agentPort, "MESH_HOST_ENGINE", n.dockerHost(),
                "MESH_HOST_STATE_DIR", states.get(name(n)).toString(), "MESH_HOST_INTERVAL", "60s",
                "MESH_TLS_CERT", files.cert(name(n)).toString(), "MESH_TLS_KEY", files.key(name(n)).toString(),
                "MESH_TLS_CA", files.caCert().toString()));
        agents.put(name(n), MeshProcess.serve(logPrefix + "-agent-" + n.name(), n.name(), env, "host", "serve"));
    }

    @AfterAll
    void tearDown() throws Exception {
        for (MeshProcess a : agents.values()) {
            a.close();
        }
        if (controller != null) {
            controller.close();
        }
        if (nodes != null) {
            wipe();
        }
        try (var c = java.sql.DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("drop database if exists " + database + " with (force)");
        }
        for (Path p : Stream.concat(Stream.ofNullable(dir), states.values().stream()).toList()) {
            PackagedMesh.deleteTree(p);
        }
    }

    Map<String, String> cliEnv() {
        return Map.of("MESH_CONTROLLER", controllerUrl, "MESH_TOKEN", admin, "MESH_CA", tls.caCert().toString());
    }

    PackagedMesh.Result cli(String... args) {
        return PackagedMesh.run(cliEnv(), args);
    }

    String ok(String... args) {
        PackagedMesh.Result r = cli(args);
        assertEquals(0, r.exit(), r::toString);
        return r.out();
    }

    /**
     * Removes what the class's nodes left on the engines: containers, volumes and networks labelled with
     * their names, and any volume whose name starts with {@link #unlabelledVolumes()} (a take's copies).
     */
    void wipe() throws IOException {
        for (TestbedNodes.Node n : nodes) {
            try (DockerClient engine = TestbedNodes.client(n)) {
                engine.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", name(n))).exec()
                        .forEach(c -> engine.removeContainerCmd(c.getId()).withForce(true).exec());
                engine.listVolumesCmd().withFilter("label", List.of("mesh.node=" + name(n))).exec().getVolumes()
                        .forEach(v -> engine.removeVolumeCmd(v.getName()).exec());
                var volumes = engine.listVolumesCmd().exec().getVolumes();
                String unlabelled = unlabelledVolumes();
                if (volumes != null && unlabelled != null) {
                    volumes.stream().filter(v -> v.getName().startsWith(unlabelled)).forEach(v -> engine.removeVolumeCmd(v.getName()).exec());
                }
                engine.listNetworksCmd().exec().stream()
                        .filter(x -> x.getLabels() != null && name(n).equals(x.getLabels().get("mesh.node")))
                        .forEach(x -> engine.removeNetworkCmd(x.getId()).exec());
            }
        }
    }

    /** The prefix of volumes the class makes without its label (a take's copy and old copy), or null. */
    String unlabelledVolumes() {
        return null;
    }
}
