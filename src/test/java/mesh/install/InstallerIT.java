package mesh.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import mesh.model.DeclarationJson;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * InstallerIT installs mesh on a fresh simulated node with the packaged {@code mesh install}, run
 * inside the node's network namespace against its own engine and the test images, and uses the
 * mesh it raised through the config file alone (docs/design.md, "The controller is a process").
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InstallerIT {

    static InstallTarget target;

    @BeforeAll
    static void node() throws Exception {
        TestbedNodes.Node n1 = TestbedNodes.up(1).get(0);
        target = new InstallTarget(n1, Files.createTempDirectory("mesh-installer-it"));
    }

    @AfterAll
    static void cleanUp() throws Exception {
        if (target != null) {
            target.close();
        }
    }

    static JsonNode json(PackagedMesh.Result r) throws Exception {
        assertEquals(0, r.exit(), r.toString());
        return DeclarationJson.MAPPER.readTree(r.out());
    }

    @Test
    @Order(1)
    void installRaisesAMeshWhoseControllerIsAProcessOfTheAgentAndAnswersWithTheConfigFileAlone() throws Exception {
        PackagedMesh.Result install = target.mesh(target.seatArgs());
        assertEquals(0, install.exit(), install.toString());
        for (String step : List.of("preflight", "agent", "store", "registry", "bundle", "controller", "pivot", "config")) {
            assertTrue(install.out().lines().anyMatch(l -> l.matches("\\[\\d/8\\] " + step + ": done in \\d+\\.\\d s")),
                    step + " not done:\n" + install);
        }
        Path config = target.home().resolve(".config/mesh/config");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(target.config().resolve("host.env"))));

        JsonNode nodes = json(target.mesh(List.of("node", "list", "-o", "json")));
        assertEquals(target.node.name(), nodes.get(0).get("name").asText(), nodes.toString());
        JsonNode catalogue = json(target.mesh(List.of("catalogue", "list", "-o", "json")));
        assertEquals(List.of("mesh-controller", "mesh-registry", "mesh-store"),
                java.util.stream.StreamSupport.stream(catalogue.spliterator(), false).map(m -> m.get("module").asText()).sorted().toList());

        Path smoke = target.root.resolve("smoke.yaml");
        Files.writeString(smoke, """
                module: smoke
                components:
                  smoke.web:
                    image: mesh-test/busybox:1
                    args: [httpd, -f, -p, "8080"]
                """);
        json(target.mesh(List.of("catalogue", "add", smoke.toString(), "-o", "json")));
        json(target.mesh(List.of("assign", target.node.name(), "smoke", "-o", "json")));
        json(target.mesh(List.of("push", "--wait", "-o", "json")));
        JsonNode status = json(target.mesh(List.of("status", "-o", "json")));
        assertTrue(status.toString().contains("smoke.web"), status.toString());

        // the controller is the agent's supervised process, not a container
        JsonNode record = DeclarationJson.MAPPER.readTree(
                target.state().resolve("host/processes/mesh-controller.serve.json").toFile());
        long pid = record.get("pid").asLong();
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "controller pid " + pid + " is not alive");
        try (var docker = TestbedNodes.client(target.node)) {
            assertTrue(docker.listContainersCmd().withShowAll(true).exec().stream()
                    .noneMatch(c -> String.join(",", c.getNames()).contains("controller")), "a controller container exists");
        }
    }

    static long controllerPid() throws Exception {
        JsonNode record = DeclarationJson.MAPPER.readTree(
                target.state().resolve("host/processes/mesh-controller.serve.json").toFile());
        return record.get("pid").asLong();
    }

    @Test
    @Order(2)
    void aSecondRunSaysEveryStepIsAlreadyDoneAndTouchesNoContainer() throws Exception {
        long pid = controllerPid();
        long since = System.currentTimeMillis() / 1000 - 1;
        PackagedMesh.Result again = target.mesh(target.seatArgs());
        assertEquals(0, again.exit(), again.toString());
        assertEquals(8, again.out().lines().filter(l -> l.matches("\\[\\d/8\\] \\w+: already done")).count(), again.toString());
        long until = System.currentTimeMillis() / 1000 + 1;
        try (var docker = TestbedNodes.client(target.node)) {
            List<String> events = new java.util.ArrayList<>();
            docker.eventsCmd().withSince(Long.toString(since)).withUntil(Long.toString(until))
                    .withEventTypeFilter(com.github.dockerjava.api.model.EventType.CONTAINER)
                    .exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Event>() {
                        @Override
                        public void onNext(com.github.dockerjava.api.model.Event e) {
                            events.add(e.getAction() + " " + e.getActor().getAttributes().get("name"));
                        }
                    }).awaitCompletion(30, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(List.of(), events.stream().filter(e -> !e.startsWith("exec_")).toList());
        }
        assertEquals(pid, controllerPid());
    }

    @Test
    @Order(3)
    void theControllerOutlivesAKilledAgentAndTheRestartedAgentAdoptsIt() throws Exception {
        long pid = controllerPid();
        long agent = Long.parseLong(Files.readString(target.state().resolve("agent.pid")).strip());
        ProcessHandle.of(agent).orElseThrow().destroyForcibly();
        PackagedMesh.await("the agent is gone", java.time.Duration.ofSeconds(20),
                () -> ProcessHandle.of(agent).map(h -> !h.isAlive()).orElse(true));
        json(target.mesh(List.of("node", "list", "-o", "json")));
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the controller died with the agent");

        // the rerun starts the agent again, as systemd would; it adopts the controller
        PackagedMesh.Result again = target.mesh(target.seatArgs());
        assertEquals(0, again.exit(), again.toString());
        assertTrue(again.out().contains("the host agent did not answer: started it again"), again.toString());
        Thread.sleep(3000);
        assertEquals(pid, controllerPid());
        json(target.mesh(List.of("status", "-o", "json")));
    }

    @Test
    @Order(4)
    void aSecondNodeJoinsWithThePrintedCommandAndRunsAnAssignedModule() throws Exception {
        TestbedNodes.Node n2 = TestbedNodes.up(2).get(1);
        try (InstallTarget second = new InstallTarget(n2, Files.createTempDirectory("mesh-installer-it-n2"))) {
            PackagedMesh.Result added = target.mesh(List.of("node", "add", n2.name(), "--address", n2.address()));
            assertEquals(0, added.exit(), added.toString());
            String join = added.out().lines().filter(l -> l.strip().startsWith("mesh install --join ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no join line:\n" + added)).strip();
            List<String> args = new java.util.ArrayList<>(List.of(join.substring("mesh ".length()).split(" ")));
            args.addAll(List.of("--engine", n2.dockerHost(), "--state-dir", second.state().toString(),
                    "--config-dir", second.config().toString()));
            PackagedMesh.Result joined = second.mesh(args);
            assertEquals(0, joined.exit(), joined.toString());

            Path web = target.root.resolve("web.yaml");
            Files.writeString(web, """
                    module: web2
                    components:
                      web2.server:
                        image: mesh-test/busybox:1
                        args: [httpd, -f, -p, "8080"]
                    """);
            json(target.mesh(List.of("catalogue", "add", web.toString(), "-o", "json")));
            json(target.mesh(List.of("assign", n2.name(), "web2", "-o", "json")));
            json(target.mesh(List.of("push", "--wait", "-o", "json")));
            PackagedMesh.Result status = target.mesh(List.of("status"));
            assertEquals(0, status.exit(), status.toString());
            try (var docker = TestbedNodes.client(n2)) {
                assertTrue(docker.listContainersCmd().exec().stream().anyMatch(c -> List.of(c.getNames()).contains("/web2.server")));
            }
            PackagedMesh.Result gone = second.mesh(List.of("uninstall", "--state-dir", second.state().toString(),
                    "--config-dir", second.config().toString()));
            assertEquals(0, gone.exit(), gone.toString());
        }
    }

    @Test
    @Order(5)
    void uninstallLeavesNoMeshProcessContainerOrStateAndKeepsTheStoresVolume() throws Exception {
        PackagedMesh.Result gone = target.mesh(List.of("uninstall", "--state-dir", target.state().toString(),
                "--config-dir", target.config().toString()));
        assertEquals(0, gone.exit(), gone.toString());
        assertTrue(gone.out().contains("kept volume mesh-store_data"), gone.toString());
        assertEquals(List.of(), target.processes().stream().map(h -> h.info().commandLine().orElse("?")).toList());
        assertTrue(!Files.exists(target.state().resolve("install")) && !Files.exists(target.config().resolve("host.env"))
                && !Files.exists(target.home().resolve(".config/mesh/config")));
        try (var docker = TestbedNodes.client(target.node)) {
            assertEquals(List.of(), docker.listContainersCmd().withShowAll(true)
                    .withLabelFilter(java.util.Map.of("mesh.node", target.node.name())).exec());
            assertTrue(docker.listVolumesCmd().exec().getVolumes().stream().anyMatch(v -> v.getName().equals("mesh-store_data")));
        }
    }
}
