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
}
