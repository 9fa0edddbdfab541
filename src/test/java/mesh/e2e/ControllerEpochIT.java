package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.Launcher;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * ControllerEpochIT: a controller started with a newer epoch (MESH_CONTROLLER_EPOCH) fences the one
 * before it on the same store: the older one still answers reads and refuses every write with a
 * message that says why, changing nothing. This is how mesh install retires its temporary
 * controller at the pivot (docs/design.md, "The controller is a process"). The older one here is the
 * controller of a mesh raised by {@code mesh install} ({@link InstalledMesh}, its epoch the one install
 * gave it); the newer one is a second controller on that mesh's store, which this test starts itself
 * through {@link Launcher} with the seat's certificate, since install runs one controller per mesh.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InstalledMeshTest
class ControllerEpochIT {

    InstalledMesh mesh;
    Process newer;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(1);
    }

    @AfterAll
    void tearDown() throws Exception {
        if (newer != null) {
            newer.destroy();
            if (!newer.waitFor(20, TimeUnit.SECONDS)) {
                newer.destroyForcibly();
            }
        }
        if (mesh != null) {
            mesh.close();
        }
    }

    @Test
    void aControllerWithANewerEpochFencesTheOlderOnesWrites() throws Exception {
        PGSimpleDataSource store = InstalledTls.store(mesh);
        long epoch = epoch(store);
        assertTrue(epoch > 0, "install gave its controller an epoch: " + epoch);
        Map<String, String> cliOlder = mesh.cliEnv();
        // two addresses of this mesh's own test-bed range (node i at 10.77.0.(10+i)): rows only, nothing is pushed to them
        int first = mesh.firstTestbedNode();
        String ace = "10.77.0." + (10 + first + 1);
        String g14 = "10.77.0." + (10 + first + 2);
        assertEquals(0, mesh.mesh("node", "add", "ace", "--address", ace).exit());

        int port = PackagedMesh.freePort();
        Map<String, String> cliNewer = new HashMap<>(cliOlder);
        cliNewer.put("MESH_CONTROLLER", "https://127.0.0.1:" + port);
        newer = startNewer(store, epoch + 1, port);
        PackagedMesh.await("the newer controller answers", Duration.ofSeconds(90),
                () -> PackagedMesh.run(cliNewer, "node", "list").exit() == 0);

        PackagedMesh.Result refused = PackagedMesh.run(cliOlder, "node", "add", "g14", "--address", g14);
        assertEquals(1, refused.exit(), refused.toString());
        assertEquals("mesh: this controller (epoch " + epoch + ") has been replaced by a newer one (epoch " + (epoch + 1)
                + "); it refuses every write\n", refused.err());
        PackagedMesh.Result read = PackagedMesh.run(cliOlder, "node", "list");
        assertEquals(0, read.exit(), read.toString());
        assertTrue(read.out().contains("ace") && !read.out().contains("g14"), read.out());
        assertEquals(0, PackagedMesh.run(cliNewer, "node", "add", "g14", "--address", g14).exit());
    }

    /** The store's epoch: the newest controller's, the installed one's until another starts. */
    static long epoch(PGSimpleDataSource store) throws Exception {
        try (Connection c = store.getConnection(); ResultSet r = c.createStatement().executeQuery("select epoch from controller_epoch")) {
            assertTrue(r.next(), "the store has an epoch");
            return r.getLong(1);
        }
    }

    /** A second controller on the installed store, with the seat's certificate and token, on a loopback port. */
    Process startNewer(PGSimpleDataSource store, long epoch, int port) throws Exception {
        Path logs = Files.createDirectories(PackagedMesh.buildDir().resolve("e2e-logs"));
        ProcessBuilder b = new ProcessBuilder(Launcher.of(mesh.seat().state().resolve("app")).command(null,
                List.of("controller", "serve"))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve("epoch-newer.log").toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(Map.of("MESH_STORE_URL", store.getURL(), "MESH_STORE_USER", store.getUser(),
                "MESH_STORE_PASSWORD", store.getPassword(), "MESH_CONTROLLER_TOKEN", mesh.cliEnv().get("MESH_TOKEN"),
                "MESH_CONTROLLER_EPOCH", Long.toString(epoch), "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port));
        b.environment().putAll(mesh.seatTls().serveEnv("controller"));
        return b.start();
    }
}
