package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * DrainIT drains a node of an installed mesh ({@link InstalledMesh}: n1 the seat, n2 to n4): n2 runs 12 modules with
 * data (volumes of 1 to {@link #LARGEST_MB} MB), one of them ({@code odd}) on an image only n2's engine has, so its
 * take to any target is refused. First the bad input is refused before anything moves, naming it. Then
 * {@code mesh drain n2 --to n3 --to n4 --parallel 2} with the controller killed -9 twice at random moments: the drain
 * ends by itself (the restarted controller carries it on) with 11 modules moved, each on n3 or n4 with data
 * byte-identical (the agents' manifest digests), and {@code odd} named with its reason and running on n2 still; n2
 * is cordoned and runs none of the 11; no module ever runs on two nodes (looked at every 0.3 s).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class DrainIT {

    static final int MODULES = 12;
    static final int LARGEST_MB = Integer.getInteger("mesh.drain.largest-mb", 20);
    static final String ODD = "m12";

    InstalledMesh mesh;
    final Map<String, String> digests = new HashMap<>();

    static String module(int i) {
        return "m" + i;
    }

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(4);
        mesh.engine("n2").tagImageCmd("mesh-test/busybox:1", "mesh-test/only-on-n2", "1").exec();
        Path dir = Files.createTempDirectory("mesh-drain");
        for (int i = 1; i <= MODULES; i++) {
            String image = module(i).equals(ODD) ? "mesh-test/only-on-n2:1" : "mesh-test/busybox:1";
            Files.writeString(dir.resolve(module(i) + ".yaml"), """
                    module: %1$s
                    components:
                      %1$s.app:
                        image: %2$s
                        args: [sh, -c, "mkdir -p /www && echo %1$s > /www/index.html && exec httpd -f -p 8080 -h /www"]
                        volumes: {data: /data}
                        ports: [%3$d]
                        stop-timeout: 1s
                    """.formatted(module(i), image, 8100 + i));
        }
        mesh.ok("catalogue", "add", dir.toString());
        for (int i = 1; i <= MODULES; i++) {
            mesh.ok("assign", "n2", module(i));
        }
        mesh.ok("push", "--wait", "--timeout", "5m");
        PackagedMesh.deleteTree(dir);
        for (int i = 1; i <= MODULES; i++) {
            int mb = i == 1 ? LARGEST_MB : 1 + i % 4;
            fill(volume("n2", module(i)), mb, i);
            digests.put(module(i), digest("n2", module(i)));
        }
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            try {
                mesh.engine("n2").removeImageCmd("mesh-test/only-on-n2:1").exec();
            } catch (RuntimeException e) {
                // gone with its node's engine already
            }
            mesh.close();
        }
    }

    @Test
    @Order(1)
    void badInputIsRefusedBeforeAnythingMovesNamingIt() throws Exception {
        mesh.ok("node", "cordon", "n4");
        try {
            refused("unknown node n9", "drain", "n9");
            refused("--to n2: a drain moves modules off n2, not onto it", "drain", "n2", "--to", "n2");
            refused("--to n4: node n4 is cordoned", "drain", "n2", "--to", "n4");
            refused("--parallel 9: K is 1 to 8", "drain", "n2", "--parallel", "9");
            refused("--parallel 0: K is 1 to 8", "drain", "n2", "--parallel", "0");
            refused("node n4 is cordoned", "take", "n4", module(1));
            refused("node n4 is cordoned", "assign", "n4", module(1));
        } finally {
            mesh.ok("node", "uncordon", "n4");
        }
        assertTrue(mesh.json("drain", "--status").isEmpty(), "a refused drain left a record");
        assertFalse(mesh.ok("node", "list").contains("(cordoned)"), mesh.ok("node", "list"));
        for (int i = 1; i <= MODULES; i++) {
            assertEquals(List.of("n2"), runningOn(module(i)), module(i) + " moved on a refused drain");
        }
        String plan = mesh.ok("drain", "n2", "--to", "n3", "--to", "n4", "--parallel", "2", "--dry-run");
        assertTrue(plan.contains("dry run, nothing changed"), plan);
        assertEquals(MODULES, plan.lines().filter(l -> l.matches("m\\d+\\s+pending\\s+n[34].*")).count(), plan);
        assertFalse(mesh.ok("node", "list").contains("(cordoned)"), "a dry run cordoned n2");
    }

    @Test
    @Order(2)
    void theDrainEndsWith11MovedAndOneNamedThroughTwoControllerKillsNeverTwoCopies() throws Exception {
        Map<String, List<String>> twice = new ConcurrentHashMap<>();
        AtomicBoolean looking = new AtomicBoolean(true);
        Thread looker = Thread.ofVirtual().start(() -> {
            while (looking.get()) {
                for (int i = 1; i <= MODULES; i++) {
                    List<String> on = runningOn(module(i));
                    if (on.size() > 1) {
                        twice.putIfAbsent(module(i), on);
                    }
                }
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        File out = File.createTempFile("mesh-drain", ".out");
        Process cli = start(out, "drain", "n2", "--to", "n3", "--to", "n4", "--parallel", "2");
        Random random = new Random();
        try {
            PackagedMesh.await("the drain of n2 moves", Duration.ofMinutes(5), () -> drain() != null
                    && drain().path("step").asText().equals("move"));
            refused("a drain of node n2 is already under way", "drain", "n2", "--to", "n3");
            for (int kill = 1; kill <= 2; kill++) {
                int moved = 2 + kill * 3 + random.nextInt(2);
                PackagedMesh.await(moved + " modules moved", Duration.ofMinutes(10), () -> count("moved") >= moved || ended());
                Thread.sleep(random.nextInt(3000));
                System.err.printf("killing the controller (kill %d) at %d moved%n", kill, count("moved"));
                mesh.killController();
                mesh.awaitController(Duration.ofMinutes(3));
            }
            PackagedMesh.await("the drain of n2 ends", Duration.ofMinutes(20), this::ended);
        } finally {
            looking.set(false);
            looker.join();
            cli.destroyForcibly();
        }
        System.err.println(Files.readString(out.toPath()));
        Files.delete(out.toPath());
        assertEquals(Map.of(), twice, "modules seen running on two nodes at once");
        JsonNode d = mesh.controller("/v1/mesh/drains/n2");
        System.err.println(mesh.ok("drain", "--status", "n2"));
        assertEquals("done", d.path("state").asText(), d.toString());
        for (JsonNode m : d.path("modules")) {
            String name = m.path("module").asText();
            if (!name.matches("m\\d+")) {
                assertEquals("left", m.path("state").asText(), "a mesh module of n2 is named and left: " + m);
                continue;
            }
            if (name.equals(ODD)) {
                assertEquals("failed", m.path("state").asText(), m.toString());
                assertTrue(m.path("reason").asText().contains("only-on-n2"), m.toString());
                assertEquals(List.of("n2"), runningOn(ODD), "the refused module does not run on n2 alone");
                continue;
            }
            assertEquals("moved", m.path("state").asText(), m.toString());
            String target = m.path("target").asText();
            assertTrue(target.equals("n3") || target.equals("n4"), m.toString());
            assertEquals(List.of(target), runningOn(name), name);
            assertEquals(digests.get(name), digest(target, name), name + "'s data differs on " + target);
        }
        assertEquals(MODULES - 1, count("moved"), d.toString());
        assertTrue(mesh.ok("node", "list").contains("n2 (cordoned)"), mesh.ok("node", "list"));
    }

    // ---- what the test reads and does

    void refused(String naming, String... args) {
        PackagedMesh.Result r = mesh.mesh(args);
        assertEquals(1, r.exit(), r.toString());
        assertTrue((r.out() + r.err()).contains(naming), r.toString());
    }

    Process start(File file, String... args) throws IOException {
        ProcessBuilder b = new ProcessBuilder(PackagedMesh.command(PackagedMesh.app(), null, List.of(args)))
                .redirectErrorStream(true).redirectOutput(file).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(mesh.cliEnv());
        return b.start();
    }

    JsonNode drain() {
        try {
            return mesh.controller("/v1/mesh/drains/n2");
        } catch (Exception e) {
            return null;
        }
    }

    boolean ended() {
        JsonNode d = drain();
        return d != null && !d.path("state").asText("running").equals("running");
    }

    long count(String state) {
        JsonNode d = drain();
        if (d == null) {
            return 0;
        }
        long n = 0;
        for (JsonNode m : d.path("modules")) {
            n += m.path("state").asText().equals(state) ? 1 : 0;
        }
        return n;
    }

    List<String> runningOn(String module) {
        List<String> on = new ArrayList<>();
        for (String node : List.of("n1", "n2", "n3", "n4")) {
            try {
                if (mesh.engine(node).listContainersCmd().exec().stream()
                        .anyMatch(c -> c.getNames()[0].equals("/" + module + ".app") && "running".equals(c.getState()))) {
                    on.add(node);
                }
            } catch (RuntimeException e) {
                // an engine that did not answer this look says nothing
            }
        }
        return on;
    }

    String digest(String node, String module) throws Exception {
        return mesh.agent(node, "/v1/volumes/" + module + "/data/manifest?kind=container", Duration.ofMinutes(2)).get("digest").asText();
    }

    Path volume(String node, String module) {
        return Path.of(mesh.engine(node).inspectVolumeCmd(module + "_data").exec().getMountpoint());
    }

    static void fill(Path root, int mb, int seed) throws IOException {
        Random random = new Random(seed);
        byte[] block = new byte[1 << 20];
        for (int i = 0; i < mb; i++) {
            random.nextBytes(block);
            Files.write(root.resolve("f" + i + ".bin"), block);
        }
        Files.writeString(root.resolve("note.txt"), "module data " + seed);
    }
}
