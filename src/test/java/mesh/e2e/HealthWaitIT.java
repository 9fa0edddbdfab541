package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * HealthWaitIT: health is part of running, through the packaged CLI, on a mesh of one test-bed node
 * raised with {@code mesh install} ({@link InstalledMesh}: the installed agent on the node's real engine,
 * the controller its process, over HTTPS). {@code push --wait} succeeds only when every component is
 * healthy; it stops within seconds when the image is missing (naming the image, node and component) or
 * the component crash-loops (restarts and last exit code), and at its timeout, naming the component
 * "unhealthy", when a health check never passes. {@code mesh status} shows the same states, in words
 * and in -o json.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InstalledMeshTest
class HealthWaitIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";
    /** The seat, which also runs the mesh's store, registry and controller. */
    static final String NODE = "n1";

    InstalledMesh mesh;
    Path catalogue;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(1);
        // this test's agent passes every two seconds (a crash loop is seen within the wait's 30 s)
        mesh.restartAgent(NODE, Map.of("MESH_HOST_INTERVAL", "2s"));
        mesh.awaitController(Duration.ofSeconds(60));
        catalogue = Files.createTempDirectory("mesh-hw-catalogue");
        module("hwok", "mesh-test/busybox:1", "[sh, -c, \"" + LOOP + "\"]", "{command: [\"true\"], timeoutSeconds: 5}");
        module("hwmissing", "mesh-test/absent-" + UUID.randomUUID().toString().substring(0, 8) + ":1",
                "[sh, -c, \"" + LOOP + "\"]", null);
        module("hwsick", "mesh-test/busybox:1", "[sh, -c, \"" + LOOP + "\"]", "{command: [\"false\"], timeoutSeconds: 4}");
        module("hwcrash", "mesh-test/busybox:1", "[sh, -c, \"exit 3\"]", null);
        ok("catalogue", "add", catalogue.toString());
        ok("assign", NODE, "hwok");
        PackagedMesh.await("the agent answers and runs hwok healthy", Duration.ofSeconds(60),
                () -> mesh("push", "--wait", "--wait-timeout", "30").exit() == 0);
    }

    @AfterEach
    void unassignAllButTheHealthyOne() throws InterruptedException {
        for (String module : List.of("hwmissing", "hwsick", "hwcrash")) {
            mesh("unassign", NODE, module);
        }
        PackagedMesh.await("only hwok is left", Duration.ofSeconds(60),
                () -> mesh("push", "--wait", "--wait-timeout", "30").exit() == 0);
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        PackagedMesh.deleteTree(catalogue);
    }

    @Test
    void aHealthyComponentIsRunningAndStatusSaysSo() throws Exception {
        PackagedMesh.Result status = mesh("status", "--refresh");
        assertEquals(0, status.exit(), status.toString());
        JsonNode component = component(JSON.readTree(ok("-o", "json", "status")), "hwok.server");
        assertEquals("running", component.get("state").asText(), component.toString());
        assertEquals(0, component.get("restarts").asInt(), component.toString());
    }

    @Test
    void aMissingImageFailsTheWaitWithinTenSecondsNamingTheImage() throws Exception {
        ok("assign", NODE, "hwmissing");
        long started = System.nanoTime();
        PackagedMesh.Result waited = mesh("push", "--wait", "--wait-timeout", "120");
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertEquals(1, waited.exit(), waited.toString());
        assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "took " + took + ": " + waited);
        String image = "mesh-test/absent-";
        assertTrue(waited.err().contains(NODE + "/hwmissing.server failing: image " + image), waited.toString());
        assertTrue(waited.err().contains("is not on this engine and pulling it failed: "), waited.toString());
        // the whole reason: the engine's answer quotes the registry URL, and the reason goes on past the quote
        assertTrue(waited.err().matches("(?s).*pulling it failed: .*\".*\".+"), waited.toString());
        assertFalse(waited.err().contains("Exception") || waited.err().contains("java."), waited.toString());

        PackagedMesh.Result status = mesh("status");
        assertEquals(1, status.exit(), status.toString());
        assertTrue(status.out().contains(NODE + "/hwmissing.server failing: image " + image), status.toString());
    }

    @Test
    void aHealthCheckThatNeverPassesFailsAtTheTimeoutNamingTheComponentUnhealthy() throws Exception {
        ok("assign", NODE, "hwsick");
        long started = System.nanoTime();
        PackagedMesh.Result waited = mesh("push", "--wait", "--wait-timeout", "12");
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertEquals(1, waited.exit(), waited.toString());
        assertTrue(took.compareTo(Duration.ofSeconds(12)) >= 0, "unhealthy is not definite: it waits out its time; took " + took);
        assertTrue(waited.err().contains("not converged within 12 s"), waited.toString());
        assertTrue(waited.err().contains("hwsick.server (unhealthy: health check not passing after 4s: health command exited 1)"),
                waited.toString());

        JsonNode component = component(JSON.readTree(mesh("-o", "json", "status").out()), "hwsick.server");
        assertEquals("unhealthy", component.get("state").asText(), component.toString());
        PackagedMesh.Result human = mesh("status");
        assertTrue(human.out().contains(NODE + "/hwsick.server unhealthy: health check not passing after 4s"), human.toString());
        // the seat runs the mesh's own components too: all of them and hwok are running, hwsick is not
        int components = JSON.readTree(mesh("-o", "json", "status").out()).get(0).get("agent").get("components").size();
        assertTrue(human.out().contains((components - 1) + "/" + components), "RUNNING counts healthy ones only: " + human);
    }

    @Test
    void aCrashLoopFailsTheWaitEarlyWithItsRestartsAndLastExitCode() throws Exception {
        ok("assign", NODE, "hwcrash");
        long started = System.nanoTime();
        PackagedMesh.Result waited = mesh("push", "--wait", "--wait-timeout", "120");
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertEquals(1, waited.exit(), waited.toString());
        assertTrue(took.compareTo(Duration.ofSeconds(30)) < 0, "took " + took + ": " + waited);
        assertTrue(waited.err().matches("(?s).*" + NODE + "/hwcrash\\.server crash-looping: \\d+ restarts, last exit code 3.*"),
                waited.toString());

        JsonNode component = component(JSON.readTree(mesh("-o", "json", "status").out()), "hwcrash.server");
        assertEquals("crash-looping", component.get("state").asText(), component.toString());
        assertTrue(component.get("restarts").asInt() >= 3, component.toString());
        assertEquals("exit code 3", component.get("lastExit").asText(), component.toString());
    }

    // ---- helpers

    static JsonNode component(JsonNode status, String name) {
        for (JsonNode c : status.get(0).get("agent").get("components")) {
            if (c.get("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no component " + name + " in " + status);
    }

    void module(String name, String image, String args, String health) throws Exception {
        Files.writeString(catalogue.resolve(name + ".yaml"), "module: " + name + "\ncomponents:\n  " + name + ".server:\n"
                + "    image: " + image + "\n    args: " + args + "\n    stop-timeout: 3s\n"
                + (health == null ? "" : "    health: " + health + "\n"));
    }

    PackagedMesh.Result mesh(String... args) {
        return mesh.mesh(args);
    }

    String ok(String... args) {
        PackagedMesh.Result r = mesh(args);
        assertEquals(0, r.exit(), () -> r.toString());
        return r.out();
    }
}
