package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * NodeLifecycleIT drives what an operator does to a running mesh after its first push, through the
 * packaged CLI, a controller process on the test PostgreSQL and two host agents on test-bed nodes:
 * moving a node's address (only the binders of its names are replaced, and push --dry-run says so
 * first), refusing an address or agent another node has, rotating an agent token (the old one is
 * refused by the agent from then on, the new one works once the agent runs with it), the agent's
 * observation age and --refresh in status, and the catalogue's show / remove / unchanged.
 *
 * <p>alpha runs module lcdb; beta runs lcapp (binds lcdb.internal) and lcother (binds nothing).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeLifecycleIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";
    static final List<String> NAMES = List.of("alpha", "beta");

    final String token = "op-" + UUID.randomUUID();
    final String database = "mesh_lc_" + UUID.randomUUID().toString().substring(0, 8);
    final Map<String, TestbedNodes.Node> testbed = new LinkedHashMap<>();
    final Map<String, DockerClient> engines = new HashMap<>();
    final Map<String, MeshProcess> agents = new HashMap<>();
    final Map<String, Path> state = new HashMap<>();
    MeshProcess controller;
    Map<String, String> cli;
    Path catalogue;

    @BeforeAll
    void raise() throws Exception {
        List<TestbedNodes.Node> nodes = TestbedNodes.up(2);
        for (int i = 0; i < 2; i++) {
            testbed.put(NAMES.get(i), nodes.get(i));
            engines.put(NAMES.get(i), TestbedNodes.client(nodes.get(i)));
        }
        wipe();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
        int port = PackagedMesh.freePort();
        controller = MeshProcess.serve("lifecycle-controller", null, Map.of(
                "MESH_STORE_URL", "jdbc:postgresql://127.0.0.1:5432/" + database,
                "MESH_STORE_USER", "mesh", "MESH_STORE_PASSWORD", "mesh",
                "MESH_CONTROLLER_TOKEN", token, "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port), "controller", "serve");
        cli = Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + port, "MESH_TOKEN", token);
        PackagedMesh.await("the controller answers", Duration.ofSeconds(60), () -> mesh("node", "list").exit() == 0);
        for (String name : NAMES) {
            TestbedNodes.Node n = testbed.get(name);
            // the agent URL is given, so that moving the address (to one nobody has) leaves it where the agent is
            JsonNode added = json(ok("node", "add", name, "--address", n.address(), "--agent",
                    "http://" + n.address() + ":7701", "-o", "json"));
            state.put(name, Files.createTempDirectory("mesh-lc-" + name));
            startAgent(name);
        }
        catalogue = Files.createTempDirectory("mesh-lc-catalogue");
        module("lcdb", List.of());
        module("lcapp", List.of("lcdb.internal"));
        module("lcother", List.of());
        module("lcspare", List.of());
        ok("catalogue", "add", catalogue.toString());
        ok("assign", "alpha", "lcdb");
        ok("assign", "beta", "lcapp");
        ok("assign", "beta", "lcother");
        PackagedMesh.await("both agents answer", Duration.ofSeconds(60),
                () -> mesh("push", "--wait", "--wait-timeout", "60").exit() == 0);
    }

    @AfterAll
    void tearDown() throws Exception {
        for (MeshProcess a : agents.values()) {
            a.close();
        }
        if (controller != null) {
            controller.close();
        }
        wipe();
        engines.values().forEach(d -> {
            try {
                d.close();
            } catch (java.io.IOException e) {
                // closing a client: nothing to undo
            }
        });
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("drop database if exists " + database + " with (force)");
        }
        for (Path p : state.values()) {
            PackagedMesh.deleteTree(p);
        }
        PackagedMesh.deleteTree(catalogue);
    }

    @Test
    @Order(1)
    void movingAnAddressReplacesOnlyTheBindersOfItsNames() throws Exception {
        Map<String, String> before = containers();
        // the agent stays where it is: given, since the URL it has is the old address's default (which would follow)
        JsonNode moved = json(ok("node", "set", "alpha", "--address", "10.98.0.1",
                "--agent", "http://" + testbed.get("alpha").address() + ":7701", "-o", "json"));
        assertEquals("10.98.0.1", moved.get("address").asText(), moved.toString());
        assertEquals("http://" + testbed.get("alpha").address() + ":7701", moved.get("agent").asText(),
                "a given agent URL stays: " + moved);

        JsonNode preview = json(mesh("push", "--dry-run", "-o", "json").out());
        assertEquals(1, preview.get("replacements").asInt(), "only lcapp.server binds a name of alpha: " + preview);
        assertEquals(List.of("lcapp.server"), replaced(preview, "beta"), preview.toString());
        assertEquals(List.of(), replaced(preview, "alpha"), preview.toString());
        assertEquals(before, containers(), "a dry run touches nothing");

        ok("push", "--wait", "--wait-timeout", "60");
        Map<String, String> after = containers();
        assertNotEquals(before.get("lcapp.server"), after.get("lcapp.server"), "the binder is replaced");
        assertEquals(before.get("lcdb.server"), after.get("lcdb.server"), "alpha's own container is not");
        assertEquals(before.get("lcother.server"), after.get("lcother.server"), "a container that binds nothing is not");
    }

    @Test
    @Order(2)
    void anAddressOrAgentAnotherNodeHasIsRefusedNamingIt() throws Exception {
        PackagedMesh.Result add = mesh("node", "add", "gamma", "--address", "10.98.0.1");
        assertEquals(1, add.exit(), add.toString());
        assertTrue(add.err().contains("node alpha"), add.toString());
        PackagedMesh.Result set = mesh("node", "set", "beta", "--agent", "http://" + testbed.get("alpha").address() + ":7701");
        assertEquals(1, set.exit(), set.toString());
        assertTrue(set.err().contains("node alpha"), set.toString());
    }

    @Test
    @Order(3)
    void aNewJoinTokenLeavesTheRunningAgentAlone() throws Exception {
        JsonNode rotated = json(ok("node", "token", "beta", "--rotate", "-o", "json"));
        String fresh = rotated.get("joinToken").asText();
        assertTrue(fresh.matches("[0-9a-f]{64}"), fresh);
        java.time.Instant expires = java.time.Instant.parse(rotated.get("joinTokenExpires").asText());
        java.time.Instant inADay = java.time.Instant.now().plus(Duration.ofHours(24));
        assertTrue(Math.abs(Duration.between(expires, inADay).toSeconds()) < 120, "expires in 24 h: " + rotated);
        assertEquals("beta", rotated.get("name").asText(), rotated.toString());
        // a change for beta: its binder must follow alpha's address back; beta's agent, not restarted, takes it
        ok("node", "set", "alpha", "--address", testbed.get("alpha").address());
        PackagedMesh.await("beta takes the push with no token at all", Duration.ofSeconds(60),
                () -> mesh("push", "--wait", "--wait-timeout", "60").exit() == 0);
        assertEquals(0, mesh("status").exit());
    }

    @Test
    @Order(4)
    void statusShowsHowOldTheObservationIsAndRefreshLooksNow() throws Exception {
        PackagedMesh.Result table = mesh("status");
        assertEquals(0, table.exit(), table.toString());
        assertTrue(table.out().lines().findFirst().orElse("").contains("SEEN"), table.out());
        assertTrue(table.out().contains(" s ago") || table.out().contains(" min ago"), table.out());

        Thread.sleep(1500);
        Instant asked = Instant.now().minusMillis(500);
        JsonNode refreshed = json(ok("-o", "json", "status", "--refresh"));
        for (JsonNode n : refreshed) {
            Instant pass = Instant.parse(n.get("agent").get("lastPass").asText());
            assertTrue(pass.isAfter(asked), "--refresh: " + n.get("node").get("name") + " looked at " + pass
                    + ", before it was asked at " + asked);
        }
    }

    @Test
    @Order(5)
    void theCatalogueShowsRemovesAndSaysWhatAddLeftUnchanged() throws Exception {
        JsonNode shown = json(ok("catalogue", "show", "lcapp", "-o", "json"));
        assertEquals("beta", shown.get("assigned").asText(), shown.toString());
        assertEquals("beta", shown.get("taken").asText(), shown.toString());
        assertEquals("lcapp.yaml", shown.get("source").asText(), shown.toString());
        assertTrue(shown.get("manifest").get("components").has("lcapp.server"), shown.toString());

        PackagedMesh.Result refused = mesh("catalogue", "remove", "lcdb");
        assertEquals(1, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("assigned to alpha"), refused.toString());

        JsonNode again = json(ok("catalogue", "add", catalogue.toString(), "-o", "json"));
        assertEquals(List.of("lcapp", "lcdb", "lcother", "lcspare"), strings(again.get("unchanged")), again.toString());
        assertEquals(0, again.get("added").size() + again.get("updated").size(), again.toString());

        ok("catalogue", "remove", "lcspare");
        assertTrue(!ok("catalogue", "list").contains("lcspare"));
        assertEquals(1, mesh("catalogue", "show", "lcspare").exit());
    }

    // ---- helpers

    void startAgent(String name) throws Exception {
        TestbedNodes.Node node = testbed.get(name);
        agents.put(name, MeshProcess.serve("lifecycle-agent-" + name, node.name(), Map.of(
                "MESH_HOST_NODE", name, "MESH_HOST_LISTEN", node.address() + ":7701", "MESH_HOST_ENGINE", node.dockerHost(),
                "MESH_HOST_STATE_DIR", state.get(name).toString(), "MESH_HOST_INTERVAL", "60s"), "host", "serve"));
    }

    void module(String name, List<String> binds) throws Exception {
        Files.writeString(catalogue.resolve(name + ".yaml"), "module: " + name + "\ncomponents:\n  " + name + ".server:\n"
                + "    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n"
                + "    binds: [" + String.join(", ", binds) + "]\n    stop-timeout: 3s\n");
    }

    /** Every container of both nodes: name → id. */
    Map<String, String> containers() {
        Map<String, String> ids = new TreeMap<>();
        engines.forEach((name, docker) -> docker.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of("mesh.node", name)).exec()
                .forEach(c -> ids.put(c.getNames()[0].substring(1), c.getId())));
        return ids;
    }

    void wipe() {
        engines.forEach((name, docker) -> {
            docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", name)).exec()
                    .forEach(c -> docker.removeContainerCmd(c.getId()).withForce(true).exec());
            docker.listVolumesCmd().withFilter("label", List.of("mesh.node=" + name)).exec().getVolumes()
                    .forEach(v -> docker.removeVolumeCmd(v.getName()).exec());
            docker.listNetworksCmd().exec().stream()
                    .filter(n -> n.getLabels() != null && name.equals(n.getLabels().get("mesh.node")))
                    .forEach(n -> docker.removeNetworkCmd(n.getId()).exec());
        });
    }

    static List<String> replaced(JsonNode report, String node) {
        List<String> names = new ArrayList<>();
        JsonNode plan = outcome(report, node).get("plan");
        if (plan != null) {
            plan.get("replace").forEach(r -> names.add(r.get("name").asText()));
        }
        return names;
    }

    static JsonNode outcome(JsonNode report, String node) {
        for (JsonNode n : report.get("nodes")) {
            if (n.get("node").asText().equals(node)) {
                return n;
            }
        }
        throw new AssertionError("no node " + node + " in " + report);
    }

    static List<String> strings(JsonNode array) {
        List<String> s = new ArrayList<>();
        array.forEach(e -> s.add(e.asText()));
        s.sort(null);
        return s;
    }

    PackagedMesh.Result mesh(String... args) {
        return PackagedMesh.run(cli, args);
    }

    String ok(String... args) {
        PackagedMesh.Result r = mesh(args);
        assertEquals(0, r.exit(), () -> r.toString());
        return r.out();
    }

    static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }
}
