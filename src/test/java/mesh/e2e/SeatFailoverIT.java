package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.Launcher;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * SeatFailoverIT: after a promote, the deposed seat changes nothing (docs/seat.md, "A fenced promote"). The
 * deposed seat is the controller of a mesh raised by {@code mesh install}; the promoted one is a second controller
 * at the next epoch, naming seat n2, on a store of its own (a database of the test bed's PostgreSQL, standing in
 * for the promoted standby: streaming replication is not built yet). Once the promoted controller has reached the
 * agent, the agent refuses the deposed controller's push (409 DEPOSED, naming both epochs and the new seat), and
 * the deposed controller then says so to every verb; a CLI whose MESH_CONTROLLER names both seats finds the promoted
 * one. The agent keeps the epoch in its state folder, and answers the promoted seat after a restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InstalledMeshTest
class SeatFailoverIT {

    static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/";
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    InstalledMesh mesh;
    Process promoted;
    final String database = "mesh_seat_" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(1);
        try (Connection c = DriverManager.getConnection(POSTGRES + "postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
    }

    @AfterAll
    void tearDown() throws Exception {
        if (promoted != null) {
            promoted.destroy();
            if (!promoted.waitFor(20, TimeUnit.SECONDS)) {
                promoted.destroyForcibly();
            }
        }
        if (mesh != null) {
            mesh.close();
        }
        try (Connection c = DriverManager.getConnection(POSTGRES + "postgres", "mesh", "mesh")) {
            c.createStatement().execute("drop database if exists " + database + " with (force)");
        }
    }

    @Test
    void anAgentThatSawThePromotedSeatRefusesTheDeposedOnesChanges() throws Exception {
        long epoch = ControllerEpochIT.epoch(InstalledTls.store(mesh));
        Map<String, String> deposed = mesh.cliEnv();
        String n1 = mesh.seat().name;
        String address = mesh.testbed(n1).address();
        Path dir = Files.createTempDirectory("mesh-seat");
        Files.writeString(dir.resolve("stapp.yaml"), "module: stapp\ncomponents:\n  stapp.server:\n"
                + "    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 1s\n");
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("assign", n1, "stapp");

        int port = PackagedMesh.freePort();
        Map<String, String> cliPromoted = new HashMap<>(deposed);
        cliPromoted.put("MESH_CONTROLLER", "https://127.0.0.1:" + port);
        promoted = startPromoted(epoch + 1, port);
        PackagedMesh.await("the promoted controller answers", Duration.ofSeconds(90),
                () -> PackagedMesh.run(cliPromoted, "node", "list").exit() == 0);
        assertEquals(0, PackagedMesh.run(cliPromoted, "node", "add", n1, "--address", address).exit());
        // its status look is the agent's first call from the new seat: the agent keeps its epoch from then on
        PackagedMesh.Result look = PackagedMesh.run(cliPromoted, "status");
        assertTrue(answered(look), look.toString());
        String kept = "was replaced by the seat on n2 at epoch " + (epoch + 1);

        PackagedMesh.Result push = PackagedMesh.run(deposed, "push");
        assertNotEquals(0, push.exit(), push.toString());
        assertTrue((push.out() + push.err()).contains("on " + n1 + " (epoch " + epoch + ") " + kept), push.toString());
        assertTrue(mesh.engine(n1).listContainersCmd().withShowAll(true).exec().stream()
                .noneMatch(c -> List.of(c.getNames()).toString().contains("stapp")), "the refused push started nothing");

        PackagedMesh.Result any = PackagedMesh.run(deposed, "node", "list");
        assertEquals(1, any.exit(), any.toString());
        assertTrue(any.err().contains("this controller was deposed by a promoted seat, and changes nothing")
                && any.err().contains(kept + "; this agent refuses every change from it; use the controller on n2 ("
                + cliPromoted.get("MESH_CONTROLLER") + ")"), any.toString());

        // the operator's config names both seats: the CLI skips the deposed one and talks to the promoted seat
        Map<String, String> both = new HashMap<>(deposed);
        both.put("MESH_CONTROLLER", deposed.get("MESH_CONTROLLER") + "," + cliPromoted.get("MESH_CONTROLLER"));
        PackagedMesh.Result found = PackagedMesh.run(both, "catalogue", "list");
        assertEquals(0, found.exit(), found.toString());
        assertTrue(!found.out().contains("stapp"), "the promoted seat's catalogue, not the deposed one's: " + found);

        mesh.restartAgent(n1, Map.of());
        PackagedMesh.await("the restarted agent answers the promoted seat", Duration.ofSeconds(60),
                () -> answered(PackagedMesh.run(cliPromoted, "status")));
        assertEquals(epoch + 1 + " n2 " + cliPromoted.get("MESH_CONTROLLER"), Files.readString(mesh.seat().state().resolve("host/controller-epoch")).strip(),
                "the agent keeps the newest seat's epoch in its state folder");
    }

    /**
     * Whether the promoted controller's {@code mesh status} heard the seat's agent: its store never pushed, so an
     * agent that answered holds a newer generation than the store knows of (and one that did not is said so instead).
     */
    static boolean answered(PackagedMesh.Result status) {
        return status.out().contains("its agent holds generation");
    }

    /** The promoted seat's controller: the next epoch, seat n2, its own store, the seat's certificate and token. */
    Process startPromoted(long epoch, int port) throws Exception {
        Path logs = Files.createDirectories(PackagedMesh.buildDir().resolve("e2e-logs"));
        ProcessBuilder b = new ProcessBuilder(Launcher.of(mesh.seat().state().resolve("app")).command(null,
                List.of("controller", "serve"))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve("seat-promoted.log").toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(Map.of("MESH_STORE_URL", POSTGRES + database, "MESH_STORE_USER", "mesh",
                "MESH_STORE_PASSWORD", "mesh", "MESH_CONTROLLER_TOKEN", mesh.cliEnv().get("MESH_TOKEN"),
                "MESH_CONTROLLER_EPOCH", Long.toString(epoch), "MESH_SEAT_NODE", "n2",
                "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port));
        b.environment().putAll(mesh.seatTls().serveEnv("controller"));
        return b.start();
    }
}
