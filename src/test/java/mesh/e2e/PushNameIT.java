package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.cli.ConfigFile;
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
 * PushNameIT is "which push, and so which operator, each generation came from" (docs/trust.md) on
 * real parts: a mesh of two test-bed nodes raised with {@code mesh install} and {@code --join}
 * ({@link InstalledMesh}: HTTPS, the installed agents and controller). Two named operator tokens each
 * push once; the agent's records, read through its API and with {@code mesh host history}, name each
 * push's operator and id, and those ids are the push rows of {@code mesh audit}; the agent's log names
 * them too. A container the second push does not change is not replaced by being named again. Then a
 * take moves a module: the declarations it sends name the take and its epoch, under the controller's
 * name, and join its audit rows too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class PushNameIT {

    static final ObjectMapper JSON = new ObjectMapper();
    /** A joined node no push has reached yet: its first generations are this test's. */
    static final String PNA = "n2";
    /** The seat, where the take moves pnweb. */
    static final String PNB = "n1";
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    final Map<String, String> tokens = new LinkedHashMap<>();
    InstalledMesh mesh;
    Path catalogue;
    /** The newest audit row before this test's pushes: the mesh's own (mesh install's) are older. */
    long auditBefore;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(2);
        tokens.put("admin", mesh.cliEnv().get("MESH_TOKEN"));
        // the agents of this test pass every second
        mesh.restartAgents(List.of(PNA, PNB), Map.of("MESH_HOST_INTERVAL", "1s"));
        PackagedMesh.await("every agent answers", Duration.ofSeconds(60), () -> {
            PackagedMesh.Result status = as("admin", "status");
            return status.out().contains("never pushed") && !status.out().contains("did not answer");
        });
        catalogue = Files.createTempDirectory("mesh-pushname-catalogue");
        for (String module : List.of("pnweb", "pnapp")) {
            Files.writeString(catalogue.resolve(module + ".yaml"), "module: " + module + "\ncomponents:\n  " + module
                    + ".server:\n    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 1s\n");
        }
        ok("admin", "catalogue", "add", catalogue.toString());
        auditBefore = 0;
        for (JsonNode e : JSON.readTree(ok("admin", "audit", "-o", "json"))) {
            auditBefore = Math.max(auditBefore, e.get("id").asLong());
        }
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        PackagedMesh.deleteTree(catalogue);
    }

    @Test
    @Order(1)
    void eachGenerationNamesThePushAndOperatorItCameFromAsTheAuditDoes() throws Exception {
        tokens.put("alice", JSON.readTree(ok("admin", "token", "create", "alice", "-o", "json")).get("token").asText());
        tokens.put("bob", JSON.readTree(ok("admin", "token", "create", "bob", "-o", "json")).get("token").asText());

        ok("alice", "assign", PNA, "pnweb");
        ok("alice", "push", "--wait", "--wait-timeout", "60");
        String web = containerId(PNA, "pnweb.server");
        ok("bob", "assign", PNA, "pnapp");
        ok("bob", "push", "--wait", "--wait-timeout", "60");

        List<JsonNode> pushes = audit("push");
        assertEquals(List.of("alice", "bob"), pushes.stream().map(p -> p.get("token").asText()).toList(), pushes.toString());
        long alices = pushes.get(0).get("id").asLong();
        long bobs = pushes.get(1).get("id").asLong();
        assertTrue(alices > 0 && bobs > alices, pushes.toString());
        assertTrue(pushes.get(1).get("change").asText().contains(PNA + " generation 2"), pushes.toString());

        // the agent's API: the list and each record name the push's id and operator
        JsonNode kept = agentGet(PNA, "/v1/declarations");
        assertEquals(2, kept.size(), kept.toString());
        assertEquals(List.of("1 alice " + alices, "2 bob " + bobs), List.of(origin(kept.get(0)), origin(kept.get(1))));
        assertTrue(kept.get(0).path("file").isMissingNode() || kept.get(0).path("file").isNull(), kept.toString());
        JsonNode second = agentGet(PNA, "/v1/declarations/2");
        assertEquals("bob", second.get("declaration").get("push").get("by").asText(), second.toString());
        assertEquals(bobs, second.get("declaration").get("push").get("id").asLong(), second.toString());

        // mesh host history on the node, in words and in JSON
        PackagedMesh.Result history = history(PNA);
        assertEquals(0, history.exit(), history.toString());
        List<String> lines = history.out().lines().toList();
        assertTrue(lines.get(0).endsWith("FROM"), history.out());
        assertTrue(lines.get(1).startsWith("1 ") && lines.get(1).endsWith("pushed by alice (push " + alices + ")"), history.out());
        assertTrue(lines.get(2).startsWith("2 ") && lines.get(2).endsWith("pushed by bob (push " + bobs + ")"), history.out());
        JsonNode listed = JSON.readTree(history(PNA, "-o", "json").out());
        assertEquals(List.of("1 alice " + alices, "2 bob " + bobs), List.of(origin(listed.get(0)), origin(listed.get(1))));

        // mesh audit's table shows the id the records name
        String table = ok("alice", "audit");
        assertTrue(table.lines().anyMatch(l -> l.startsWith(bobs + " ") && l.contains(" bob ") && l.contains(" push ")), table);
        assertEquals(web, containerId(PNA, "pnweb.server"), "bob's push named anew leaves alice's unchanged container alone");
        String log = Files.readString(mesh.agentLog(PNA));
        assertTrue(log.contains("accepted generation 2, pushed by bob (push " + bobs + "): "), "the agent's log names it too");
    }

    @Test
    @Order(2)
    void aTakesDeclarationsNameTheTakeAndItsEpochAsTheAuditDoes() throws Exception {
        String out = ok("admin", "take", PNB, "pnweb");
        assertTrue(out.contains("pnweb runs on " + PNB), out);
        JsonNode kept = agentGet(PNB, "/v1/declarations");
        List<JsonNode> byTake = new ArrayList<>();
        kept.forEach(k -> {
            if (k.path("push").path("take").asText().equals("pnweb")) {
                byTake.add(k.get("push"));
            }
        });
        assertFalse(byTake.isEmpty(), PNB + "'s records name the take: " + kept);
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
        PackagedMesh.Result history = history(PNB);
        String last = history.out().lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(last.contains("pushed by controller for the take of pnweb, epoch "), history.out());
    }

    // ---- helpers

    /** "GENERATION BY ID" of one entry of the agent's list or of {@code mesh host history -o json}. */
    static String origin(JsonNode entry) {
        return entry.get("generation").asLong() + " " + entry.get("push").get("by").asText() + " "
                + entry.get("push").get("id").asLong();
    }

    /** The audit rows of {@code verb} since this test began. */
    List<JsonNode> audit(String verb) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        JSON.readTree(ok("admin", "audit", "-o", "json")).forEach(e -> {
            if (e.get("verb").asText().equals(verb) && e.get("id").asLong() > auditBefore) {
                rows.add(e);
            }
        });
        return rows;
    }

    /** {@code mesh host history} on a node, reading that node's agent's state folder (no agent needed). */
    PackagedMesh.Result history(String node, String... more) {
        List<String> args = new ArrayList<>(List.of("host", "history"));
        args.addAll(List.of(more));
        String state = ConfigFile.read(mesh.node(node).config().resolve("host.env")).get("MESH_HOST_STATE_DIR");
        return PackagedMesh.run(Map.of("MESH_HOST_STATE_DIR", state), args.toArray(String[]::new));
    }

    /** GET of the node's agent API, as the controller makes it (HTTPS, its client certificate; a non-2xx fails). */
    JsonNode agentGet(String name, String path) throws Exception {
        return mesh.agent(name, path);
    }

    String containerId(String node, String name) {
        return mesh.engine(node).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", node)).exec()
                .stream().filter(c -> c.getNames()[0].equals("/" + name)).findFirst()
                .map(c -> c.getId()).orElseThrow(() -> new AssertionError(name + " is not on " + node));
    }

    PackagedMesh.Result as(String who, String... args) {
        Map<String, String> env = new HashMap<>(mesh.cliEnv());
        env.put("MESH_TOKEN", tokens.get(who));
        return PackagedMesh.run(env, args);
    }

    String ok(String who, String... args) {
        PackagedMesh.Result r = as(who, args);
        assertEquals(0, r.exit(), r::toString);
        return r.out();
    }
}
