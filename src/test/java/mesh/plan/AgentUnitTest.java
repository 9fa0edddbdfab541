package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentUnitTest {

    @Test
    void theUnitRestartsTheAgentAloneAndPassesSystemdAnalyzeVerify(@TempDir Path dir) throws Exception {
        Path launcher = dir.resolve("mesh");
        Files.writeString(launcher, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path env = dir.resolve("host.env");
        Files.writeString(env, AgentUnit.envFile(AgentUnit.settings("n1", "10.77.0.11",
                "unix:///var/run/docker.sock", "/var/lib/mesh", null)));
        String unit = AgentUnit.unit(launcher.toString(), env.toString(), "10.77.0.11");
        assertTrue(unit.contains("\nRestart=always\n") && unit.contains("\nKillMode=process\n"), unit);
        Path file = dir.resolve(AgentUnit.UNIT_NAME);
        Files.writeString(file, unit);
        Process p = new ProcessBuilder("systemd-analyze", "verify", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        // verify also judges the machine's own units; only lines about ours count
        String ours = out.lines().filter(l -> l.contains(AgentUnit.UNIT_NAME) || l.contains(file.toString()))
                .reduce("", (a, b) -> a + b + "\n");
        assertEquals("", ours, out);
        assertEquals(0, p.exitValue(), out);
    }

    @Test
    void theSettingsNameTheNodeListenEngineAndRecordsAndNoToken() {
        assertEquals("""
                # The host agent's settings, written by mesh install (mode 0600).
                MESH_HOST_NODE=n1
                MESH_HOST_LISTEN=10.77.0.11:7701
                MESH_HOST_ENGINE=unix:///run/mesh-n1/docker.sock
                MESH_HOST_STATE_DIR=/var/lib/mesh/host
                """, AgentUnit.envFile(AgentUnit.settings("n1", "10.77.0.11", "unix:///run/mesh-n1/docker.sock", "/var/lib/mesh",
                null)));
    }

    @Test
    void moduleNetworksGivenToInstallAreTheAgentsRangeAndOtherwiseItKeepsItsDefault() {
        assertEquals("""
                # The host agent's settings, written by mesh install (mode 0600).
                MESH_HOST_NODE=n1
                MESH_HOST_LISTEN=10.77.0.11:7701
                MESH_HOST_ENGINE=unix:///var/run/docker.sock
                MESH_HOST_STATE_DIR=/var/lib/mesh/host
                MESH_HOST_NETWORKS=192.168.64.0/18
                """, AgentUnit.envFile(AgentUnit.settings("n1", "10.77.0.11", "unix:///var/run/docker.sock", "/var/lib/mesh",
                "192.168.64.0/18")));
        // what the agent reads back from that file is the range given
        assertEquals(mesh.model.Cidr.parse("192.168.64.0/18", "x"), NetworkRange.parse(AgentUnit.settings("n1", "10.77.0.11",
                "unix:///var/run/docker.sock", "/var/lib/mesh", "192.168.64.0/18").get(NetworkRange.SETTING)));
        assertTrue(!AgentUnit.settings("n1", "10.77.0.11", "unix:///var/run/docker.sock", "/var/lib/mesh", null)
                .containsKey(NetworkRange.SETTING), "without the flag the agent keeps " + NetworkRange.DEFAULT);
    }
}
