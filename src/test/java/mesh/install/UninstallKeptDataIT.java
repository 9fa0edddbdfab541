package mesh.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * UninstallKeptDataIT: the packaged {@code mesh uninstall} keeps a node's volumes and says a later
 * {@code mesh uninstall --delete-data} deletes them; that later run has no host.env any more (the
 * first removed it), and must still find and delete exactly them, on the real root engine.
 */
class UninstallKeptDataIT {

    static final String ENGINE = System.getenv().getOrDefault("MESH_TEST_ENGINE", "unix:///var/run/docker.sock");
    static final String NODE = "uninstall-kept-it";
    static final String OTHER = "uninstall-kept-it-other";

    @TempDir
    Path dir;

    @AfterEach
    void clean() throws Exception {
        docker("volume", "rm", "-f", NODE + "-data", OTHER + "-data");
    }

    @Test
    void aDeleteDataAfterAPlainUninstallDeletesTheVolumesTheFirstOneKeptAndNoOthers() throws Exception {
        docker("volume", "create", "--label", "mesh.node=" + NODE, "--label", "mesh.module=kept", NODE + "-data");
        docker("volume", "create", "--label", "mesh.node=" + OTHER, "--label", "mesh.module=kept", OTHER + "-data");
        Path state = dir.resolve("state");
        Path config = dir.resolve("etc");
        Files.createDirectories(state.resolve("install"));
        Files.createDirectories(config);
        Files.writeString(config.resolve("host.env"), "MESH_HOST_NODE=" + NODE + "\nMESH_HOST_ENGINE=" + ENGINE + "\n");
        Map<String, String> env = Map.of("HOME", dir.toString());
        String[] uninstall = {"uninstall", "--state-dir", state.toString(), "--config-dir", config.toString(), "-o", "json"};

        PackagedMesh.Result first = PackagedMesh.run(env, uninstall);
        assertEquals(0, first.exit(), first.toString());
        assertTrue(first.out().contains("\"volume " + NODE + "-data\""), "the plain uninstall keeps the volume: " + first);
        assertTrue(volumeExists(NODE + "-data"));
        assertTrue(!Files.exists(config.resolve("host.env")), "the plain uninstall removed host.env");

        PackagedMesh.Result second = PackagedMesh.run(env, with(uninstall, "--delete-data"));
        assertEquals(0, second.exit(), second.toString());
        assertEquals(List.of("volume " + NODE + "-data"), volumesIn(second), "the later --delete-data deletes exactly the kept volume: " + second);
        assertTrue(!volumeExists(NODE + "-data"), "the kept volume is gone");
        assertTrue(volumeExists(OTHER + "-data"), "another node's volume on the same engine is left alone");
        assertTrue(!Files.exists(state), "the state dir is gone with the record of the kept node");

        PackagedMesh.Result third = PackagedMesh.run(env, with(uninstall, "--delete-data"));
        assertEquals(0, third.exit(), third.toString());
        assertEquals(List.of(), volumesIn(third), "nothing left to delete: " + third);
        assertTrue(volumeExists(OTHER + "-data"));
    }

    private static String[] with(String[] args, String more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add(more);
        return all.toArray(String[]::new);
    }

    /** The volumes an uninstall's JSON report says it removed. */
    private static List<String> volumesIn(PackagedMesh.Result r) throws IOException {
        List<String> volumes = new ArrayList<>();
        for (var removed : mesh.model.DeclarationJson.MAPPER.readTree(r.out()).path("removed")) {
            if (removed.asText().startsWith("volume ")) {
                volumes.add(removed.asText());
            }
        }
        return volumes;
    }

    private static boolean volumeExists(String name) throws Exception {
        return docker("volume", "inspect", name) == 0;
    }

    private static int docker(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("docker", "-H", ENGINE));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor();
    }
}
