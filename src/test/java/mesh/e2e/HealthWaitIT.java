package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * HealthWaitIT: health is part of running, through the packaged CLI, a controller process on the test
 * PostgreSQL and a host agent on a test-bed node with its real engine. {@code push --wait} succeeds
 * only when every component is healthy; it stops within seconds when the image is missing (naming the
 * image, node and component) or the component crash-loops (restarts and last exit code), and at its
 * timeout, naming the component "unhealthy", when a health check never passes. {@code mesh status}
 * shows the same states, in words and in -o json.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HealthWaitIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";
    static final String NODE = "hw";

    final String token = "op-" + UUID.randomUUID();
    final String database = "mesh_hw_" + UUID.randomUUID().toString().substring(0, 8);
    TestbedNodes.Node bed;
    DockerClient docker;
    MeshProcess controller;
    MeshProcess agent;
    Map<String, String> cli;
    Path catalogue;
    Path state;

    @BeforeAll
    void raise() throws Exception {
        bed = TestbedNodes.up(1).get(0);
        docker = TestbedNodes.client(bed);
        wipe();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
        int port = PackagedMesh.freePort();
        controller = MeshProcess.serve("health-controller", null, Map.of(
                "MESH_STORE_URL", "jdbc:postgresql://127.0.0.1:5432/" + database,
                "MESH_STORE_USER", "mesh", "MESH_STORE_PASSWORD", "mesh",
                "MESH_CONTROLLER_TOKEN", token, "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port), "controller", "serve");
        cli = Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + port, "MESH_TOKEN", token);
        PackagedMesh.await("the controller answers", Duration.ofSeconds(60), () -> mesh("node", "list").exit() == 0);
        JsonNode added = JSON.readTree(ok("node", "add", NODE, "--address", bed.address(), "--agent",
                "http://" + bed.address() + ":7701", "-o", "json"));
        state = Files.createTempDirectory("mesh-hw-state");
        agent = MeshProcess.serve("health-agent", bed.name(), Map.of(
                "MESH_HOST_NODE", NODE, "MESH_HOST_LISTEN", bed.address() + ":7701", "MESH_HOST_ENGINE", bed.dockerHost(),
                "MESH_HOST_STATE_DIR", state.toString(), "MESH_HOST_INTERVAL", "2s"), "host", "serve");
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
        if (agent != null) {
            agent.close();
        }
        if (controller != null) {
            controller.close();
        }
        wipe();
        docker.close();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("drop database if exists " + database + " with (force)");
        }
        PackagedMesh.deleteTree(state);
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
        assertTrue(human.out().contains("1/2"), "RUNNING counts healthy ones only: " + human);
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

    void wipe() {
        docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", NODE)).exec()
                .forEach(c -> docker.removeContainerCmd(c.getId()).withForce(true).exec());
        docker.listNetworksCmd().exec().stream()
                .filter(n -> n.getLabels() != null && NODE.equals(n.getLabels().get("mesh.node")))
                .forEach(n -> docker.removeNetworkCmd(n.getId()).exec());
    }

    PackagedMesh.Result mesh(String... args) {
        return PackagedMesh.run(cli, args);
    }

    String ok(String... args) {
        PackagedMesh.Result r = mesh(args);
        assertEquals(0, r.exit(), () -> r.toString());
        return r.out();
    }
}
