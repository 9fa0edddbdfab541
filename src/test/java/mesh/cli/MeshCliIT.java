package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainIntegrationTest;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * MeshCliIT drives the packaged executable as a process: the jar here, the native `mesh` in the
 * GitHub workflow's native job, with the same assertions.
 */
@QuarkusMainIntegrationTest
class MeshCliIT {

    @Test
    void versionHelpAndUsageErrors(QuarkusMainLauncher launcher) {
        LaunchResult version = launcher.launch("--version");
        assertEquals(0, version.exitCode());
        assertTrue(version.getOutput().startsWith("mesh "), version.getOutput());

        LaunchResult help = launcher.launch("--help");
        assertEquals(0, help.exitCode());
        assertTrue(help.getOutput().contains("host"), help.getOutput());

        LaunchResult unknown = launcher.launch("nosuchverb");
        assertEquals(2, unknown.exitCode());
        // the test launcher turns Quarkus' own startup log on (it watches for it), so look past it
        assertEquals(java.util.List.of("mesh: 'nosuchverb' is no verb of mesh (see 'mesh --help')"),
                unknown.getErrorOutput().lines().filter(l -> l.startsWith("mesh:")).toList());
    }

    @Test
    void hostHistoryOfAnEmptyStateDirSaysSo(QuarkusMainLauncher launcher) throws Exception {
        Path dir = Files.createTempDirectory("mesh-history");
        Path config = Files.writeString(dir.resolve("host.env"), "MESH_HOST_STATE_DIR=" + dir + "\n");
        LaunchResult result = launcher.launch("host", "history", "--config", config.toString());
        assertEquals(0, result.exitCode(), result.getErrorOutput());
        assertEquals("no declarations kept in " + dir.resolve("declarations") + " (MESH_HOST_STATE_DIR from " + config + ")",
                result.getOutput().strip());
    }

    @Test
    void aMalformedDeclarationFileIsRefusedWithItsProblems(QuarkusMainLauncher launcher) throws Exception {
        Path file = Files.createTempFile("bad", ".json");
        Files.writeString(file, "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"imgae\":\"x\"}]}");
        LaunchResult result = launcher.launch("host", "apply", file.toString());
        assertEquals(1, result.exitCode());
        assertTrue(result.getErrorOutput().contains("unknown field 'imgae' in components[0]"), result.getErrorOutput());
    }

    @Test
    void hostServeWithoutANodeNameRefusesToStart(QuarkusMainLauncher launcher) throws Exception {
        Path dir = Files.createTempDirectory("mesh-serve");
        Path config = Files.writeString(dir.resolve("host.env"),
                "MESH_HOST_LISTEN=127.0.0.1:0\nMESH_PLAIN_HTTP=yes\nMESH_HOST_STATE_DIR=" + dir + "\n");
        LaunchResult result = launcher.launch("host", "serve", "--config", config.toString());
        assertEquals(1, result.exitCode());
        assertTrue(result.getErrorOutput().contains("MESH_HOST_NODE is not set"), result.getErrorOutput());
        assertFalse(result.getErrorOutput().contains("MESH_HOST_TOKEN is not set"), "an agent needs no token: " + result.getErrorOutput());
    }
}
