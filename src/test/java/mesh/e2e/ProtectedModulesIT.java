package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * ProtectedModulesIT: the mesh cannot take itself down (docs/design.md, invariant 11), on a mesh raised
 * by {@code mesh install} and {@code --join} ({@link InstalledMesh}): n1 the seat (mesh-store,
 * mesh-registry, mesh-controller), n2 the edge of zurag.test, serving the route of a module on n1.
 * Unassigning, catalogue-removing and removing the node of each of the mesh's own modules is refused
 * naming the module, the store and the agents' generations unchanged, and the mesh keeps answering.
 * Then removals count in the push budget: a push that removes more containers than the budget
 * (2, the controller's MESH_PUSH_BUDGET) stops, its preview lists and counts the removals, and
 * {@code --yes} lets it through. Last, moving one of them is a take: mesh-registry taken to n2 arrives
 * with its data, every node's declaration names it there, and the controller's process is not replaced.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class ProtectedModulesIT {

    static final List<String> SEAT_MODULES = List.of("mesh-store", "mesh-registry", "mesh-controller");

    InstalledMesh mesh;
    Path dir;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(2);
        dir = Files.createTempDirectory("mesh-protected");
        TestbedEdge.write(dir);
        Files.writeString(dir.resolve("web.yaml"), """
                module: web
                components:
                  web.server:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "mkdir -p /www && echo web >/www/index.html && exec httpd -f -p 8085 -h /www"]
                    ports: [8085]
                    stop-timeout: 1s
                routes:
                  www: {component: web.server, port: 8085, domain: zurag.test}
                """);
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("node", "public-domain", "n2", "zurag.test");
        mesh.ok("assign", "n1", "web");
        mesh.ok("push", "--wait");
    }

    @AfterAll
    void close() throws Exception {
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
        }
        if (mesh != null) {
            mesh.close();
        }
    }

    @Test
    @Order(1)
    void eachOfTheMeshsOwnModulesIsRefusedNamingItAndNothingIsSentOrStored() throws Exception {
        assertTrue(components("n2").contains("route-proxy.server"), "n2 runs the edge: " + components("n2").toString());
        Map<String, Long> generations = generations();
        String catalogue = mesh.json("catalogue", "list").toString();
        String nodes = mesh.json("node", "list").toString();
        String roster = mesh.json("roster").toString();

        for (String module : SEAT_MODULES) {
            refused(module, "'mesh take NODE " + module + "'", "unassign", "n1", module);
            refused(module, "refused while the module runs", "catalogue", "remove", module);
        }
        refused("mesh-controller", "no flag lets the controller remove itself",
                "unassign", "n1", "mesh-controller", "--force-remove-mesh-module", "mesh-controller");
        refused("mesh-store", "no flag removes the store the controller runs on",
                "unassign", "n1", "mesh-store", "--force-remove-mesh-module", "mesh-store");
        refused("mesh-registry", "to remove it all the same, name it: --force-remove-mesh-module mesh-registry",
                "unassign", "n1", "mesh-registry", "--force-remove-mesh-module", "mesh-store");
        refused("route-proxy", "node n2's edge (module route-proxy), serving 1 route", "catalogue", "remove", "route-proxy");
        PackagedMesh.Result seat = refused("mesh-store", "removing node n1 would stop the mesh's own modules", "node", "remove", "n1");
        assertTrue(seat.err().contains("mesh-registry") && seat.err().contains("mesh-controller"), seat.toString());
        refused("route-proxy", "node n2's edge", "node", "remove", "n2");

        assertEquals(catalogue, mesh.json("catalogue", "list").toString(), "the catalogue is unchanged");
        assertEquals(nodes, mesh.json("node", "list").toString(), "the nodes are unchanged");
        assertEquals(roster, mesh.json("roster").toString(), "the roster is unchanged");
        assertEquals(generations, generations(), "no agent was sent anything");
        JsonNode again = mesh.json("push", "--dry-run");
        for (JsonNode n : again.get("nodes")) {
            assertEquals("unchanged", n.get("outcome").asText(), "nothing waits to be sent: " + again);
        }
        assertTrue(components("n1").containsAll(List.of("mesh-store.postgres", "mesh-registry.registry")), components("n1").toString());
        mesh.ok("node", "list");
    }

    @Test
    @Order(2)
    void theOverrideNamesTheModuleItLetsGoAndTheMeshComesBackWhenItIsAssignedAgain() throws Exception {
        Map<String, Long> generations = generations();
        String said = mesh.ok("unassign", "n1", "mesh-registry", "--force-remove-mesh-module", "mesh-registry");
        assertTrue(said.contains("unassigned mesh-registry from n1"), said);
        // the controller's bundle comes from the registry: the plan fails, so nothing is sent
        PackagedMesh.Result push = mesh.mesh("push");
        assertEquals(1, push.exit(), push.toString());
        assertEquals(generations, generations(), "no agent was sent anything");
        mesh.ok("assign", "n1", "mesh-registry");
        JsonNode back = mesh.json("push", "--dry-run");
        for (JsonNode n : back.get("nodes")) {
            assertEquals("unchanged", n.get("outcome").asText(), "assigned again, nothing differs: " + back);
        }
        mesh.ok("node", "list");
    }

    @Test
    @Order(3)
    void removalsCountInTheBudgetThePreviewListsAndCountsThemAndYesLetsThemThrough() throws Exception {
        mesh.controllerEnv(Map.of("MESH_PUSH_BUDGET", "2"));
        Files.writeString(dir.resolve("many.yaml"), """
                module: many
                components:
                  many.a: {image: mesh-test/busybox:1, args: [sleep, "3600"], stop-timeout: 1s}
                  many.b: {image: mesh-test/busybox:1, args: [sleep, "3600"], stop-timeout: 1s}
                  many.c: {image: mesh-test/busybox:1, args: [sleep, "3600"], stop-timeout: 1s}
                """);
        mesh.ok("catalogue", "add", dir.resolve("many.yaml").toString());
        mesh.ok("assign", "n2", "many");
        JsonNode created = mesh.json("push", "--wait");
        assertEquals(3, created.get("totals").get("create").asInt(), "creations do not count in the budget: " + created);
        mesh.ok("unassign", "n2", "many");
        long n2 = generations().get("n2");

        String preview = mesh.ok("push", "--dry-run");
        for (String c : List.of("many.a", "many.b", "many.c")) {
            assertTrue(preview.contains("  remove  " + c), preview);
        }
        assertTrue(preview.contains("  n2: would create 0, replace 0, remove 3 and leave 1 container(s)"), preview);
        assertTrue(preview.contains("would create 0, replace 0, remove 3 and leave "), preview);
        assertTrue(preview.contains("3 replaced or removed, which the push budget counts"), preview);
        JsonNode json = mesh.json("push", "--dry-run");
        assertEquals(0, json.get("replacements").asInt(), json.toString());
        assertEquals(3, json.get("removals").asInt(), json.toString());
        assertEquals(3, json.get("totals").get("remove").asInt(), json.toString());
        JsonNode node = node(json, "n2");
        assertEquals(3, node.get("counts").get("remove").asInt(), node.toString());
        assertEquals(1, node.get("counts").get("unchanged").asInt(), "the edge stays: " + node);

        PackagedMesh.Result over = mesh.mesh("push");
        assertEquals(1, over.exit(), over.toString());
        assertTrue(over.err().contains("this push would remove 3 containers, more than the budget of 2 (the budget counts"
                + " replacements and removals together: 0 replaced, 3 removed)"), over.toString());
        assertEquals(n2, generations().get("n2"), "over the budget, nothing was sent");

        JsonNode yes = mesh.json("push", "--yes");
        assertEquals(3, yes.get("removals").asInt(), yes.toString());
        assertEquals("sent", node(yes, "n2").get("outcome").asText(), yes.toString());
        PackagedMesh.await("n2 removed many's containers", Duration.ofSeconds(60),
                () -> mesh.engine("n2").listContainersCmd().withShowAll(true).exec().stream()
                        .noneMatch(c -> c.getNames()[0].startsWith("/many.")));
        assertTrue(generations().get("n2") > n2, "n2 got the push");
        mesh.ok("node", "list");
    }

    @Test
    @Order(4)
    void theRegistryIsMovedWithATakeAndTheNodesFetchFromItThereWithNothingReplaced() throws Exception {
        String n1 = mesh.testbed("n1").address();
        String n2 = mesh.testbed("n2").address();
        String repositories = registryCatalogue(n1);
        assertTrue(repositories.contains("mesh-controller"), "the seat's registry holds the controller's bundle: " + repositories);
        long controller = mesh.controllerPid();
        assertEquals("http://" + n1 + ":5000", declared("n1").get("registry").asText(), "n1 fetches from the registry on n1");

        String said = mesh.ok("take", "n2", "mesh-registry");
        assertTrue(said.contains("mesh-registry"), said);
        assertTrue(components("n2").contains("mesh-registry.registry"), components("n2").toString());
        assertTrue(!components("n1").contains("mesh-registry.registry"), components("n1").toString());
        assertEquals(repositories, registryCatalogue(n2), "the registry's data came with it");
        PackagedMesh.await("n1's declaration names the registry on n2", Duration.ofSeconds(60),
                () -> ("http://" + n2 + ":5000").equals(declared("n1").path("registry").asText()));
        assertEquals(controller, mesh.controllerPid(), "the controller's process was not replaced: where bundles come from is no part of its spec");
        mesh.ok("node", "list");
        assertTrue(mesh.json("roster").toString().contains(n2), "the roster's mesh-registry.internal is on n2: " + mesh.json("roster"));
    }

    /** The repositories of the registry on {@code address} ({@code GET /v2/_catalog}). */
    private static String registryCatalogue(String address) throws IOException, InterruptedException {
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + address + ":5000/v2/_catalog"))
                        .timeout(Duration.ofSeconds(10)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    /** The declaration node {@code name}'s agent holds now (its newest generation). */
    private JsonNode declared(String name) {
        try {
            long generation = mesh.agent(name, "/v1/status").get("generation").asLong();
            return mesh.agent(name, "/v1/declarations/" + generation).get("declaration");
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Runs a verb that must be refused (exit 1) naming {@code module} and saying {@code says}. */
    private PackagedMesh.Result refused(String module, String says, String... args) {
        PackagedMesh.Result r = mesh.mesh(args);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(module) && r.err().contains(says), r.toString());
        return r;
    }

    /** Each agent's newest generation, as it says itself. */
    private Map<String, Long> generations() throws IOException, InterruptedException {
        return Map.of("n1", mesh.agent("n1", "/v1/status").get("generation").asLong(),
                "n2", mesh.agent("n2", "/v1/status").get("generation").asLong());
    }

    /** The components the node's agent holds, by name. */
    private List<String> components(String name) {
        try {
            List<String> names = new java.util.ArrayList<>();
            mesh.agent(name, "/v1/status").get("components").forEach(c -> names.add(c.get("name").asText()));
            return names;
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static JsonNode node(JsonNode report, String name) {
        for (JsonNode n : report.get("nodes")) {
            if (n.get("node").asText().equals(name)) {
                return n;
            }
        }
        throw new AssertionError("no node " + name + " in " + report);
    }
}
