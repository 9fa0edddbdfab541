package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.Test;

/**
 * ControllerEpochIT: a controller started with a newer epoch (MESH_CONTROLLER_EPOCH) fences the one
 * before it on the same store: the older one still answers reads and refuses every write with a
 * message that says why, changing nothing. This is how mesh install retires its temporary
 * controller at the pivot (docs/design.md, "The controller is a process").
 */
class ControllerEpochIT {

    @Test
    void aControllerWithANewerEpochFencesTheOlderOnesWrites() throws Exception {
        String database = "mesh_epoch_" + UUID.randomUUID().toString().substring(0, 8);
        String token = "op-" + UUID.randomUUID();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
        int older = PackagedMesh.freePort();
        int newer = PackagedMesh.freePort();
        Map<String, String> store = Map.of("MESH_STORE_URL", "jdbc:postgresql://127.0.0.1:5432/" + database,
                "MESH_STORE_USER", "mesh", "MESH_STORE_PASSWORD", "mesh", "MESH_CONTROLLER_TOKEN", token);
        Map<String, String> cliOlder = Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + older, "MESH_TOKEN", token);
        Map<String, String> cliNewer = Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + newer, "MESH_TOKEN", token);
        try (MeshProcess a = MeshProcess.serve("epoch-older", null, with(store, "MESH_CONTROLLER_EPOCH", "5",
                "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + older), "controller", "serve")) {
            PackagedMesh.await("the older controller answers", Duration.ofSeconds(60),
                    () -> PackagedMesh.run(cliOlder, "node", "list").exit() == 0);
            assertEquals(0, PackagedMesh.run(cliOlder, "node", "add", "ace", "--address", "10.77.0.12").exit());
            try (MeshProcess b = MeshProcess.serve("epoch-newer", null, with(store, "MESH_CONTROLLER_EPOCH", "6",
                    "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + newer), "controller", "serve")) {
                PackagedMesh.await("the newer controller answers", Duration.ofSeconds(60),
                        () -> PackagedMesh.run(cliNewer, "node", "list").exit() == 0);

                PackagedMesh.Result refused = PackagedMesh.run(cliOlder, "node", "add", "g14", "--address", "10.77.0.13");
                assertEquals(1, refused.exit(), refused.toString());
                assertEquals("mesh: this controller (epoch 5) has been replaced by a newer one (epoch 6); it refuses every write\n",
                        refused.err());
                PackagedMesh.Result read = PackagedMesh.run(cliOlder, "node", "list");
                assertEquals(0, read.exit(), read.toString());
                assertTrue(read.out().contains("ace") && !read.out().contains("g14"), read.out());
                assertEquals(0, PackagedMesh.run(cliNewer, "node", "add", "g14", "--address", "10.77.0.13").exit());
            }
        } finally {
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
                c.createStatement().execute("drop database if exists " + database + " with (force)");
            }
        }
    }

    private static Map<String, String> with(Map<String, String> base, String... kv) {
        Map<String, String> m = new java.util.HashMap<>(base);
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
