package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.OtherBuild;
import mesh.testbed.PackagedMesh;
import mesh.wire.Build;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * MixedBuildsIT is a mesh of two builds that do not speak to each other (docs/upgrade.md, "Which builds speak to each
 * other"), installed as operators install it: the seat (and so the controller) and n2 run this build at
 * wire level 3 ({@link OtherBuild#thisBuildAtWire}: a later build), n3 this build (level 1: an agent left behind). A push reaches n1 and
 * n2 and holds n3 back alone, naming both builds and {@code mesh upgrade}; a take onto n3 is refused before anything
 * stops, the module still running where it was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class MixedBuildsIT {

    static final String VERSION = Build.current().version();
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    InstalledMesh mesh;
    Path catalogue;
    String commit;

    @BeforeAll
    void raise() throws Exception {
        commit = Build.current().commit();
        Path later = OtherBuild.thisBuildAtWire(3);
        mesh = InstalledMesh.raise(3, List.of(), Map.of("n1", later, "n2", later));
        catalogue = Files.createTempDirectory("mesh-mixed-catalogue");
        for (String module : List.of("mxa", "mxb")) {
            Files.writeString(catalogue.resolve(module + ".yaml"), "module: " + module + "\ncomponents:\n  " + module
                    + ".server:\n    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 1s\n");
        }
        mesh.ok("catalogue", "add", catalogue.toString());
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
    void aPushHoldsBackTheAgentOutsideTheRuleAloneNamingBothBuildsAndTheFix() throws Exception {
        JsonNode nodes = mesh.json("node", "list");
        assertEquals(3, nodes.size(), nodes.toString());

        mesh.ok("assign", "n2", "mxa");
        mesh.ok("assign", "n3", "mxb");
        PackagedMesh.Result push = mesh.mesh("push", "--wait", "--wait-timeout", "60");
        assertEquals(1, push.exit(), push.toString());
        String why = "node n3's agent runs mesh " + VERSION + " (" + commit + ") (wire level 1); this controller runs mesh " + VERSION + " ("
                + commit + ") (wire level 3) and speaks only to agents at levels 3 and 4, so its declaration was not sent (the"
                + " other nodes' were): the agent is older than the controller; run `mesh upgrade --node n3` with this"
                + " controller's build to move it";
        assertTrue(push.err().contains("n3: behind (it is sent at the next push): " + why), push.toString());
        assertTrue(push.out().contains("n2: sent generation"), push.toString());
        assertTrue(container("n2", "mxa.server").isPresent(), "n2 was pushed");
        assertTrue(container("n3", "mxb.server").isEmpty(), "n3 was sent nothing");

        // the same in JSON, for scripts: n3's line is behind with the reason; nothing else is
        PackagedMesh.Result json = mesh.mesh("push", "-o", "json");
        assertEquals(1, json.exit(), json.toString());
        JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out());
        for (JsonNode n : report.get("nodes")) {
            boolean held = n.get("node").asText().equals("n3");
            assertEquals(held ? "behind" : "unchanged", n.get("outcome").asText(), report.toString());
            assertEquals(held, n.path("error").asText().equals(why), report.toString());
        }
    }

    @Test
    @Order(2)
    void aTakeOntoTheAgentOutsideTheRuleIsRefusedBeforeAnythingStops() throws Exception {
        String before = container("n2", "mxa.server").orElseThrow();
        PackagedMesh.Result take = mesh.mesh("take", "n3", "mxa");
        assertNotEquals(0, take.exit(), take.toString());
        String said = take.out() + take.err();
        assertTrue(said.contains("preflight: node n3's agent runs mesh " + VERSION + " (" + commit + ") (wire level 1)")
                && said.contains("so the take of mxa was not started")
                && said.contains("run `mesh upgrade --node n3`") && said.contains("nothing was changed"), take.toString());
        assertEquals(Optional.of(before), container("n2", "mxa.server"), "mxa still runs on n2, its container the same");
        assertTrue(container("n3", "mxa.server").isEmpty(), "nothing of mxa on n3");
    }

    private Optional<String> container(String node, String name) {
        return mesh.engine(node).listContainersCmd().withShowAll(false).withLabelFilter(Map.of("mesh.node", node)).exec().stream()
                .filter(c -> c.getNames()[0].equals("/" + name)).findFirst().map(c -> c.getId());
    }
}
