package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * NodeLifecycleIT drives what an operator does to a running mesh after its first push, through the
 * packaged CLI, on a mesh of two nodes raised by {@code mesh install} and {@code --join}
 * ({@link InstalledMesh}): moving a node's address (only the binders of its names are replaced, and
 * push --dry-run says so first), refusing an address or agent another node has, a new join token for a
 * node (24 h; its running agent, not restarted and holding no token, takes the next push), the agent's
 * observation age and --refresh in status, and the catalogue's show / remove / unchanged.
 *
 * <p>alpha (the joined node n2) runs module lcdb; beta (the seat n1, beside the store, registry and
 * controller install runs there) runs lcapp (binds lcdb.internal) and lcother (binds nothing). The node
 * that moves is alpha: moving the seat would move the mesh's own store and controller.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class NodeLifecycleIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";
    /** The nodes' names in the installed mesh: alpha joined, beta the seat. */
    static final String ALPHA = "n2";
    static final String BETA = "n1";

    InstalledMesh mesh;
    Path catalogue;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(2);
        catalogue = Files.createTempDirectory("mesh-lc-catalogue");
        module("lcdb", List.of());
        module("lcapp", List.of("lcdb.internal"));
        module("lcother", List.of());
        module("lcspare", List.of());
        ok("catalogue", "add", catalogue.toString());
        ok("assign", ALPHA, "lcdb");
        ok("assign", BETA, "lcapp");
        ok("assign", BETA, "lcother");
        PackagedMesh.await("both agents answer", Duration.ofSeconds(60),
                () -> mesh("push", "--wait", "--wait-timeout", "60").exit() == 0);
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        if (catalogue != null) {
            PackagedMesh.deleteTree(catalogue);
        }
    }

    @Test
    @Order(1)
    void movingAnAddressReplacesOnlyTheBindersOfItsNames() throws Exception {
        Map<String, String> before = containers();
        // the agent stays where it is: given, since the URL it has is the old address's default (which would follow)
        JsonNode moved = json(ok("node", "set", ALPHA, "--address", "10.98.0.1",
                "--agent", "https://" + address(ALPHA) + ":7701", "-o", "json"));
        assertEquals("10.98.0.1", moved.get("address").asText(), moved.toString());
        assertEquals("https://" + address(ALPHA) + ":7701", moved.get("agent").asText(),
                "a given agent URL stays: " + moved);

        JsonNode preview = json(mesh("push", "--dry-run", "-o", "json").out());
        assertEquals(1, preview.get("replacements").asInt(), "only lcapp.server binds a name of alpha: " + preview);
        assertEquals(List.of("lcapp.server"), replaced(preview, BETA), preview.toString());
        assertEquals(List.of(), replaced(preview, ALPHA), preview.toString());
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
        assertTrue(add.err().contains("node " + ALPHA), add.toString());
        PackagedMesh.Result set = mesh("node", "set", BETA, "--agent", "https://" + address(ALPHA) + ":7701");
        assertEquals(1, set.exit(), set.toString());
        assertTrue(set.err().contains("node " + ALPHA), set.toString());
    }

    @Test
    @Order(3)
    void aNewJoinTokenLeavesTheRunningAgentAlone() throws Exception {
        JsonNode rotated = json(ok("node", "token", BETA, "--rotate", "-o", "json"));
        String fresh = rotated.get("joinToken").asText();
        assertTrue(fresh.matches("[0-9a-f]{64}"), fresh);
        java.time.Instant expires = java.time.Instant.parse(rotated.get("joinTokenExpires").asText());
        java.time.Instant inADay = java.time.Instant.now().plus(Duration.ofHours(24));
        assertTrue(Math.abs(Duration.between(expires, inADay).toSeconds()) < 120, "expires in 24 h: " + rotated);
        assertEquals(BETA, rotated.get("name").asText(), rotated.toString());
        // a change for beta: its binder must follow alpha's address back; beta's agent, not restarted, takes it
        long agent = mesh.agentPid(BETA);
        ok("node", "set", ALPHA, "--address", address(ALPHA));
        PackagedMesh.await("beta takes the push with no token at all", Duration.ofSeconds(60),
                () -> mesh("push", "--wait", "--wait-timeout", "60").exit() == 0);
        assertEquals(0, mesh("status").exit());
        assertEquals(agent, mesh.agentPid(BETA), "beta's agent was not restarted");
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
        assertEquals(BETA, shown.get("assigned").asText(), shown.toString());
        assertEquals(BETA, shown.get("taken").asText(), shown.toString());
        assertEquals("lcapp.yaml", shown.get("source").asText(), shown.toString());
        assertTrue(shown.get("manifest").get("components").has("lcapp.server"), shown.toString());

        PackagedMesh.Result refused = mesh("catalogue", "remove", "lcdb");
        assertEquals(1, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("assigned to " + ALPHA), refused.toString());

        JsonNode again = json(ok("catalogue", "add", catalogue.toString(), "-o", "json"));
        assertEquals(List.of("lcapp", "lcdb", "lcother", "lcspare"), strings(again.get("unchanged")), again.toString());
        assertEquals(0, again.get("added").size() + again.get("updated").size(), again.toString());

        ok("catalogue", "remove", "lcspare");
        assertTrue(!ok("catalogue", "list").contains("lcspare"));
        assertEquals(1, mesh("catalogue", "show", "lcspare").exit());
    }

    // ---- helpers

    void module(String name, List<String> binds) throws Exception {
        Files.writeString(catalogue.resolve(name + ".yaml"), "module: " + name + "\ncomponents:\n  " + name + ".server:\n"
                + "    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n"
                + "    binds: [" + String.join(", ", binds) + "]\n    stop-timeout: 3s\n");
    }

    /** Every container of both nodes (the seat's store and registry among them): name → id. */
    Map<String, String> containers() {
        Map<String, String> ids = new TreeMap<>();
        for (String name : mesh.names()) {
            mesh.engine(name).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", name)).exec()
                    .forEach(c -> ids.put(c.getNames()[0].substring(1), c.getId()));
        }
        return ids;
    }

    String address(String node) {
        return mesh.testbed(node).address();
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
        return mesh.mesh(args);
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
