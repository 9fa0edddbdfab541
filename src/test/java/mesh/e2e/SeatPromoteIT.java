package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.InstalledNode;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * SeatPromoteIT: a mesh that loses its seat keeps everything the seat acknowledged (docs/seat.md, must-show 1 of the
 * standby seat). An installed mesh of three nodes, n2 made the standby with {@code mesh seat add n2} (streaming, then
 * synchronous); a module on n3; a secret set and an assignment made one second before the seat dies (its agent, its
 * controller and every container of it SIGKILLed); {@code mesh seat promote n2} run on n2; the first verb the new seat
 * answers is timed from the promote's start (at most 30 s); the containers of n2 and n3 keep their ids; the secret and
 * the assignment are there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InstalledMeshTest
class SeatPromoteIT {

    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    InstalledMesh mesh;
    String linkCut;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(3);
        withReplicationTools(mesh.engine("n2"));
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            if (linkCut != null) {
                TestbedNodes.link(linkCut, true);
            }
            mesh.close();
            for (String n : List.of("n1", "n2", "n3")) {
                try (DockerClient d = TestbedNodes.client(mesh.testbed(n))) {
                    d.removeVolumeCmd("mesh-standby_data").exec();
                } catch (RuntimeException e) {
                    // none on that node
                }
            }
        }
    }

    @Test
    void thePromotedStandbyHasEverythingTheSeatAcknowledged() throws Exception {
        Path dir = Files.createTempDirectory("mesh-promote");
        Files.writeString(dir.resolve("keep.yaml"), "module: keep\ncomponents:\n  keep.server:\n"
                + "    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n    volumes: {data: /data}\n    stop-timeout: 1s\n");
        Files.writeString(dir.resolve("late.yaml"), "module: late\ncomponents:\n  late.server:\n"
                + "    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 1s\n");
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("assign", "n3", "keep");
        mesh.ok("push");

        String added = mesh.ok("seat", "add", "n2");
        System.out.println("SeatPromoteIT: " + added.strip().replace("\n", "\nSeatPromoteIT: "));
        PackagedMesh.await("the standby is in sync and synchronous", Duration.ofSeconds(180),
                () -> mesh.mesh("status").out().contains("standby n2: in sync, synchronous"));

        Map<String, String> before = containers(List.of("n2", "n3"));
        PackagedMesh.Result set = mesh.meshWithInput("acknowledged-by-the-seat", "secret", "set", "keep", "token");
        assertEquals(0, set.exit(), set.toString());
        mesh.ok("assign", "n3", "late");
        Thread.sleep(1000);
        killSeat();

        InstalledNode n2 = mesh.node("n2");
        long t0 = System.nanoTime();
        PackagedMesh.Result promote = n2.mesh(List.of("seat", "promote", "n2", "--state-dir", n2.state().toString()));
        assertEquals(0, promote.exit(), promote.toString());
        System.out.println("SeatPromoteIT: " + promote.out().strip().replace("\n", "\nSeatPromoteIT: "));
        PackagedMesh.Result secrets = n2.mesh(List.of("secret", "list", "keep"));
        double firstVerb = (System.nanoTime() - t0) / 1e9;
        System.out.printf("SeatPromoteIT: first verb answered by the promoted seat %.1f s after the promote began%n", firstVerb);
        assertEquals(0, secrets.exit(), secrets.toString());
        assertTrue(secrets.out().contains("token"), "the secret set one second before the seat died is there: " + secrets);
        assertTrue(firstVerb <= 30, "the first verb within 30 s of the promote: " + firstVerb + " s");

        PackagedMesh.Result roster = n2.mesh(List.of("catalogue", "list"));
        assertTrue(roster.out().lines().anyMatch(l -> l.contains("late") && l.contains("n3")),
                "the assignment made one second before the seat died is there: " + roster);
        assertEquals(before, containers(List.of("n2", "n3")), "every container on the surviving nodes keeps its id");
    }

    /** The seat's machine dies: its agent, its controller and every container of it SIGKILLed, its link cut. */
    private void killSeat() throws Exception {
        linkCut = mesh.testbed("n1").name();
        TestbedNodes.link(linkCut, false);
        mesh.killAgent("n1");
        try {
            mesh.killController();
        } catch (AssertionError e) {
            // already gone with its agent
        }
        DockerClient d = mesh.engine("n1");
        for (Container c : d.listContainersCmd().exec()) {
            d.killContainerCmd(c.getId()).exec();
        }
    }

    /** Each running container of the nodes, name to id. */
    private Map<String, String> containers(List<String> nodes) {
        return nodes.stream().flatMap(n -> mesh.engine(n).listContainersCmd().exec().stream())
                .collect(Collectors.toMap(c -> c.getNames()[0], Container::getId, (a, b) -> a, java.util.TreeMap::new));
    }

    /**
     * The test bed's store image on n2 with PostgreSQL's replication tools, when an older recipe of it lacks them
     * (scripts/testbed recipe 6 has them): {@code pg_basebackup} and {@code pg_rewind} copied in from the machine's
     * PostgreSQL 15, the image committed under its own name on that node's engine.
     */
    static void withReplicationTools(DockerClient engine) throws Exception {
        String image = "mesh-test/postgres:15";
        String id = engine.createContainerCmd(image).withLabels(Map.of("mesh.test.image-patch", "1")).exec().getId();
        try {
            Path tar = Files.createTempFile("pg-tools", ".tar");
            Process p = new ProcessBuilder("tar", "-C", "/", "-cf", tar.toString(), "usr/lib/postgresql/15/bin/pg_basebackup",
                    "usr/lib/postgresql/15/bin/pg_rewind").inheritIO().start();
            assertEquals(0, p.waitFor());
            try (InputStream in = Files.newInputStream(tar)) {
                engine.copyArchiveToContainerCmd(id).withTarInputStream(in).withRemotePath("/").exec();
            }
            engine.commitCmd(id).withRepository("mesh-test/postgres").withTag("15").exec();
            Files.deleteIfExists(tar);
        } finally {
            engine.removeContainerCmd(id).withForce(true).exec();
        }
    }
}
