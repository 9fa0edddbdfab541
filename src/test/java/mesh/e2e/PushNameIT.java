package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
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
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * PushNameIT is "which push, and so which operator, each generation came from" (docs/trust.md) on
 * real parts: a controller process on a store of its own and two host agents on test-bed nodes.
 * Two named operator tokens each push once; the agent's records, read through its API and with
 * {@code mesh host history}, name each push's operator and id, and those ids are the push rows of
 * {@code mesh audit}; the agent's log names them too. A container the second push does not change is not replaced by being named
 * again. Then a take moves a module: the declarations it sends name the take and its epoch, under
 * the controller's name, and join its audit rows too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PushNameIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> NAMES = List.of("pna", "pnb");
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    final String admin = HexFormat.of().formatHex(UUID.randomUUID().toString().getBytes()).substring(0, 48);
    final String database = "mesh_pushname_" + UUID.randomUUID().toString().substring(0, 8);
    final String logPrefix = "pushname-" + UUID.randomUUID().toString().substring(0, 8);
    final Map<String, String> tokens = new LinkedHashMap<>();
    final Map<String, TestbedNodes.Node> testbed = new LinkedHashMap<>();
    final Map<String, DockerClient> engines = new LinkedHashMap<>();
    final Map<String, MeshProcess> agents = new LinkedHashMap<>();
    final Map<String, Path> states = new LinkedHashMap<>();
    final List<Path> temps = new ArrayList<>();
    final HttpClient http = HttpClient.newHttpClient();
    MeshProcess controller;
    String controllerUrl;

    @BeforeAll
    void raise() throws Exception {
        List<TestbedNodes.Node> nodes = TestbedNodes.up(2);
        for (int i = 0; i < NAMES.size(); i++) {
            testbed.put(NAMES.get(i), nodes.get(i));
            engines.put(NAMES.get(i), TestbedNodes.client(nodes.get(i)));
        }
        wipe();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
        tokens.put("admin", admin);
        int port = PackagedMesh.freePort();
        controllerUrl = "http://127.0.0.1:" + port;
        controller = MeshProcess.serve(logPrefix + "-controller", null, Map.of(
                "MESH_STORE_URL", "jdbc:postgresql://127.0.0.1:5432/" + database, "MESH_STORE_USER", "mesh",
                "MESH_STORE_PASSWORD", "mesh", "MESH_CONTROLLER_TOKEN", admin,
                "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port), "controller", "serve");
        PackagedMesh.await("the controller answers", Duration.ofSeconds(60), () -> as("admin", "node", "list").exit() == 0);
        for (String name : NAMES) {
            TestbedNodes.Node node = testbed.get(name);
            JsonNode added = JSON.readTree(ok("admin", "node", "add", name, "--address", node.address(), "-o", "json"));
            states.put(name, temp("mesh-pushname-" + name));
            agents.put(name, MeshProcess.serve(logPrefix + "-agent-" + name, node.name(), agentEnv(name), "host", "serve"));
        }
        PackagedMesh.await("every agent answers", Duration.ofSeconds(60), () -> {
            String status = as("admin", "status").out();
            return status.contains("never pushed") && !status.contains("did not answer");
        });
        Path catalogue = temp("mesh-pushname-catalogue");
        for (String module : List.of("pnweb", "pnapp")) {
            Files.writeString(catalogue.resolve(module + ".yaml"), "module: " + module + "\ncomponents:\n  " + module
                    + ".server:\n    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 1s\n");
        }
        ok("admin", "catalogue", "add", catalogue.toString());
    }

    @AfterAll
    void tearDown() throws Exception {
        for (MeshProcess agent : agents.values()) {
            agent.close();
        }
        if (controller != null) {
            controller.close();
        }
        wipe();
        for (DockerClient engine : engines.values()) {
            engine.close();
        }
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("drop database if exists " + database + " with (force)");
        }
        for (Path p : temps) {
            PackagedMesh.deleteTree(p);
        }
    }

    @Test
    @Order(1)
    void eachGenerationNamesThePushAndOperatorItCameFromAsTheAuditDoes() throws Exception {
        tokens.put("alice", JSON.readTree(ok("admin", "token", "create", "alice", "-o", "json")).get("token").asText());
        tokens.put("bob", JSON.readTree(ok("admin", "token", "create", "bob", "-o", "json")).get("token").asText());

        ok("alice", "assign", "pna", "pnweb");
        ok("alice", "push", "--wait", "--wait-timeout", "60");
        String web = containerId("pna", "pnweb.server");
        ok("bob", "assign", "pna", "pnapp");
        ok("bob", "push", "--wait", "--wait-timeout", "60");

        List<JsonNode> pushes = audit("push");
        assertEquals(List.of("alice", "bob"), pushes.stream().map(p -> p.get("token").asText()).toList(), pushes.toString());
        long alices = pushes.get(0).get("id").asLong();
        long bobs = pushes.get(1).get("id").asLong();
        assertTrue(alices > 0 && bobs > alices, pushes.toString());
        assertTrue(pushes.get(1).get("change").asText().contains("pna generation 2"), pushes.toString());

        // the agent's API: the list and each record name the push's id and operator
        JsonNode kept = agentGet("pna", "/v1/declarations");
        assertEquals(2, kept.size(), kept.toString());
        assertEquals(List.of("1 alice " + alices, "2 bob " + bobs), List.of(origin(kept.get(0)), origin(kept.get(1))));
        assertTrue(kept.get(0).path("file").isMissingNode() || kept.get(0).path("file").isNull(), kept.toString());
        JsonNode second = agentGet("pna", "/v1/declarations/2");
        assertEquals("bob", second.get("declaration").get("push").get("by").asText(), second.toString());
        assertEquals(bobs, second.get("declaration").get("push").get("id").asLong(), second.toString());

        // mesh host history on the node, in words and in JSON
        PackagedMesh.Result history = history("pna");
        assertEquals(0, history.exit(), history.toString());
        List<String> lines = history.out().lines().toList();
        assertTrue(lines.get(0).endsWith("FROM"), history.out());
        assertTrue(lines.get(1).startsWith("1 ") && lines.get(1).endsWith("pushed by alice (push " + alices + ")"), history.out());
        assertTrue(lines.get(2).startsWith("2 ") && lines.get(2).endsWith("pushed by bob (push " + bobs + ")"), history.out());
        JsonNode listed = JSON.readTree(history("pna", "-o", "json").out());
        assertEquals(List.of("1 alice " + alices, "2 bob " + bobs), List.of(origin(listed.get(0)), origin(listed.get(1))));

        // mesh audit's table shows the id the records name
        String table = ok("alice", "audit");
        assertTrue(table.lines().anyMatch(l -> l.startsWith(bobs + " ") && l.contains(" bob ") && l.contains(" push ")), table);
        assertEquals(web, containerId("pna", "pnweb.server"), "bob's push named anew leaves alice's unchanged container alone");
        String log = Files.readString(MeshProcess.LOGS.resolve(logPrefix + "-agent-pna.log"));
        assertTrue(log.contains("accepted generation 2, pushed by bob (push " + bobs + "): "), "the agent's log names it too");
    }

    @Test
    @Order(2)
    void aTakesDeclarationsNameTheTakeAndItsEpochAsTheAuditDoes() throws Exception {
        String out = ok("admin", "take", "pnb", "pnweb");
        assertTrue(out.contains("pnweb runs on pnb"), out);
        JsonNode kept = agentGet("pnb", "/v1/declarations");
        List<JsonNode> byTake = new ArrayList<>();
        kept.forEach(k -> {
            if (k.path("push").path("take").asText().equals("pnweb")) {
                byTake.add(k.get("push"));
            }
        });
        assertFalse(byTake.isEmpty(), "pnb's records name the take: " + kept);
        List<JsonNode> rows = audit("push").stream()
                .filter(p -> p.get("change").asText().contains(" for the take of pnweb, epoch ")).toList();
        assertTrue(rows.size() >= 2, "the take's start and its push are both recorded: " + rows);
        for (JsonNode push : byTake) {
            assertEquals("controller", push.get("by").asText(), push.toString());
            JsonNode row = rows.stream().filter(r -> r.get("id").asLong() == push.get("id").asLong()).findFirst()
                    .orElseThrow(() -> new AssertionError("no audit row " + push + " in " + rows));
            assertEquals("controller", row.get("token").asText(), row.toString());
            assertTrue(row.get("change").asText().endsWith(" for the take of pnweb, epoch " + push.get("epoch").asLong()),
                    row + " " + push);
        }
        PackagedMesh.Result history = history("pnb");
        String last = history.out().lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(last.contains("pushed by controller for the take of pnweb, epoch "), history.out());
    }

    // ---- helpers

    Map<String, String> agentEnv(String name) {
        TestbedNodes.Node node = testbed.get(name);
        return Map.of("MESH_HOST_NODE", name, "MESH_HOST_LISTEN", node.address() + ":7701", "MESH_HOST_ENGINE", node.dockerHost(),
                "MESH_HOST_STATE_DIR", states.get(name).toString(), "MESH_HOST_INTERVAL", "1s");
    }

    /** "GENERATION BY ID" of one entry of the agent's list or of {@code mesh host history -o json}. */
    static String origin(JsonNode entry) {
        return entry.get("generation").asLong() + " " + entry.get("push").get("by").asText() + " "
                + entry.get("push").get("id").asLong();
    }

    List<JsonNode> audit(String verb) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        JSON.readTree(ok("admin", "audit", "-o", "json")).forEach(e -> {
            if (e.get("verb").asText().equals(verb)) {
                rows.add(e);
            }
        });
        return rows;
    }

    /** {@code mesh host history} on a node, reading that node's agent's state folder (no agent needed). */
    PackagedMesh.Result history(String node, String... more) {
        List<String> args = new ArrayList<>(List.of("host", "history"));
        args.addAll(List.of(more));
        return PackagedMesh.run(Map.of("MESH_HOST_STATE_DIR", states.get(node).toString()), args.toArray(String[]::new));
    }

    JsonNode agentGet(String name, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + testbed.get(name).address() + ":7701" + path)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    String containerId(String node, String name) {
        return engines.get(node).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", node)).exec()
                .stream().filter(c -> c.getNames()[0].equals("/" + name)).findFirst()
                .map(c -> c.getId()).orElseThrow(() -> new AssertionError(name + " is not on " + node));
    }

    PackagedMesh.Result as(String who, String... args) {
        return PackagedMesh.run(Map.of("MESH_CONTROLLER", controllerUrl, "MESH_TOKEN", tokens.get(who)), args);
    }

    String ok(String who, String... args) {
        PackagedMesh.Result r = as(who, args);
        assertEquals(0, r.exit(), r::toString);
        return r.out();
    }

    Path temp(String prefix) throws Exception {
        Path p = Files.createTempDirectory(prefix);
        temps.add(p);
        return p;
    }

    void wipe() {
        engines.forEach((node, engine) -> {
            engine.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", node)).exec()
                    .forEach(c -> engine.removeContainerCmd(c.getId()).withForce(true).exec());
            engine.listVolumesCmd().withFilter("label", List.of("mesh.node=" + node)).exec().getVolumes()
                    .forEach(v -> engine.removeVolumeCmd(v.getName()).exec());
            engine.listNetworksCmd().exec().stream()
                    .filter(n -> n.getLabels() != null && node.equals(n.getLabels().get("mesh.node")))
                    .forEach(n -> engine.removeNetworkCmd(n.getId()).exec());
        });
    }
}
