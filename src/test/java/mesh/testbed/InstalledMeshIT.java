package mesh.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * InstalledMeshIT checks the fixture every end-to-end IT stands on: the mesh it raises is the one
 * {@code mesh install} and {@code --join} make (two nodes, HTTPS, the CLI on install's config file), and
 * its servers are the installed program: each agent and the controller run from the launcher in a
 * state folder with the serve flags of {@code mesh/serve-flags.properties}, as {@code /proc} shows them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InstalledMeshIT {

    InstalledMesh mesh;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(2);
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
    }

    static Properties flags() throws Exception {
        Properties p = new Properties();
        try (var in = Files.newInputStream(Path.of("src/main/resources/mesh/serve-flags.properties"))) {
            p.load(in);
        }
        return p;
    }

    static String cmdline(long pid) throws Exception {
        return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline"))).replace('\0', ' ');
    }

    @Test
    void bothNodesJoinedOverHttpsAndTheCliUsesTheConfigFileInstallWrote() throws Exception {
        assertTrue(mesh.cliEnv().get("MESH_CONTROLLER").startsWith("https://" + mesh.testbed("n1").address() + ":7700"),
                mesh.cliEnv().toString());
        JsonNode nodes = mesh.json("node", "list");
        assertEquals(List.of("n1", "n2"), StreamSupport.stream(nodes.spliterator(), false).map(n -> n.get("name").asText()).sorted().toList());
        assertEquals("n2", mesh.agent("n2", "/v1/status").get("node").asText());
    }

    @Test
    void everyServerRunsFromItsStateFolderWithTheServeFlags() throws Exception {
        Properties flags = flags();
        for (String name : mesh.names()) {
            String agent = cmdline(mesh.agentPid(name));
            assertTrue(agent.contains(mesh.node(name).state().resolve("app").toString()), agent);
            assertTrue(agent.contains(flags.getProperty("serve") + " " + flags.getProperty("host") + " -jar"), agent);
            assertTrue(agent.endsWith("host serve --config " + mesh.node(name).config().resolve("host.env") + " "), agent);
        }
        // the agent's record names the supervisor's shim; the JVM is its child, run by the bundle's launcher
        long jvm = ProcessHandle.of(mesh.controllerPid()).orElseThrow().descendants()
                .filter(h -> h.info().commandLine().orElse("").contains("controller serve")).findFirst().orElseThrow().pid();
        String controller = cmdline(jvm);
        assertTrue(controller.contains(flags.getProperty("serve") + " " + flags.getProperty("controller") + " -jar"), controller);
        assertTrue(controller.contains(mesh.seat().state().toString()), controller);
    }

    @Test
    void aKilledAgentStartsAgainWithTheSameLauncherLineAndTheControllerKeepsItsPid() throws Exception {
        long controller = mesh.controllerPid();
        long before = mesh.agentPid("n1");
        mesh.restartAgent("n1", Map.of());
        assertNotEquals(before, mesh.agentPid("n1"));
        assertTrue(cmdline(mesh.agentPid("n1")).contains(flags().getProperty("host")));
        mesh.awaitController(java.time.Duration.ofSeconds(30));
        assertEquals(controller, mesh.controllerPid(), "the restarted agent adopted the controller");
    }
}
