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
 * data (volumes of 1 to {@link #LARGEST_MB} MB): {@code m1} the largest, {@code m2} a process module ({@code bundle:}),
 * {@code m3} routed through n3's edge ({@code www.n3.test}), and {@code odd} ({@code m12}) on an image only n2's
 * engine has, so its take to any target is refused. Binders of m1, m2 and m3 run on n3 and n4, a binder of odd on n1,
 * and a module that binds nothing on each of n1, n3 and n4. First the bad input is refused before anything moves,
 * naming it. Then {@code mesh drain n2 --to n3 --to n4 --parallel 2} with the controller killed -9 twice at random
 * moments: the drain ends by itself (the restarted controller carries it on) with 11 modules moved, each on n3 or n4
 * with data byte-identical (the sha256 of every file of its volume, and the agents' manifest digests), the route
 * served through the edge from the new node, exactly the binders of the moved names replaced and every other
 * container on every node keeping its id, and {@code odd} named with its reason and running on n2 still; n2 is
 * cordoned and runs none of the 11; no module ever runs on two nodes (looked at every 0.3 s).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class DrainIT {

    static final int MODULES = 12;
    static final int LARGEST_MB = Integer.getInteger("mesh.drain.largest-mb", 200);
    static final String ODD = "m12";
    static final String PROC = "m2";
    static final String PROCESS = "m2.proc";
    static final String ROUTED = "m3";
    static final String ROUTE = "www.n3.test";
    /** The binders: module, node, the names it binds. */
    static final List<List<String>> BINDERS = List.of(List.of("b3", "n3", "[m1.internal, m2.internal]"),
            List.of("b4", "n4", "[m3.internal]"), List.of("b1", "n1", "[m12.internal]"), List.of("i1", "n1", "[]"),
            List.of("i3", "n3", "[]"), List.of("i4", "n4", "[]"));

    InstalledMesh mesh;
    DrainBed bed;
    Path dir;
    Path ca;
    final Map<String, String> digests = new HashMap<>();
    final Map<String, Map<String, String>> trees = new HashMap<>();

    static String module(int i) {
        return "m" + i;
    }

    @BeforeAll
    void raise() throws Exception {
        DrainBed.endShims(PROCESS);
        mesh = InstalledMesh.raise(4);
        bed = new DrainBed(mesh);
        mesh.engine("n2").tagImageCmd("mesh-test/busybox:1", "mesh-test/only-on-n2", "1").exec();
        dir = Files.createTempDirectory("mesh-drain");
        String bundle = bed.bundle(dir, "it/drain-proc:1");
        assertTrue(bundle.startsWith("it/drain-proc@sha256:"), bundle);
        for (int i = 1; i <= MODULES; i++) {
            Files.writeString(dir.resolve(module(i) + ".yaml"), manifest(i));
        }
        for (List<String> b : BINDERS) {
            Files.writeString(dir.resolve(b.get(0) + ".yaml"), """
                    module: %1$s
                    components:
                      %1$s.server:
                        image: mesh-test/busybox:1
                        args: [sh, -c, "trap 'exit 0' TERM; while true; do sleep 1; done"]
                        binds: %2$s
                        stop-timeout: 1s
                    """.formatted(b.get(0), b.get(2)));
        }
        bed.edge(dir);
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("node", "public-domain", "n3", "n3.test");
        for (int i = 1; i <= MODULES; i++) {
            mesh.ok("assign", "n2", module(i));
        }
        for (List<String> b : BINDERS) {
            mesh.ok("assign", b.get(1), b.get(0));
        }
        bed.endProcesses(8100 + 2);
        mesh.ok("push", "--wait", "--timeout", "5m");
        for (int i = 1; i <= MODULES; i++) {
            int mb = i == 1 ? LARGEST_MB : 1 + i % 4;
            Path volume = bed.volume("n2", module(i), module(i).equals(PROC));
            DrainBed.fill(volume, mb, i);
            trees.put(module(i), DrainBed.tree(volume));
            if (!module(i).equals(PROC)) {
                digests.put(module(i), digest("n2", module(i)));
            }
        }
        PackagedMesh.await("mesh route ca prints n3's edge's CA", Duration.ofSeconds(60),
                () -> mesh.mesh("route", "ca", "n3").out().startsWith("-----BEGIN CERTIFICATE-----"));
        ca = dir.resolve("edge-ca.pem");
        Files.writeString(ca, mesh.ok("route", "ca", "n3"));
        PackagedMesh.await(ROUTE + " is served through n3's edge from n2", Duration.ofSeconds(60),
                () -> bed.page(ca, "n3", ROUTE).equals(ROUTED));
    }

    /** Module i's manifest: a busybox httpd with a volume and a port; m2 a process, m3 routed, odd on n2's own image. */
    static String manifest(int i) {
        String m = module(i);
        if (m.equals(PROC)) {
            return """
                    module: %1$s
                    components:
                      %2$s:
                        bundle: it/drain-proc:1
                        env: {PORT: "%3$d"}
                        volumes: {data: /data}
                        ports: [%3$d]
                        health: {http: /health.txt, port: %3$d}
                        stop-timeout: 2s
                    """.formatted(m, PROCESS, 8100 + i);
        }
        String image = m.equals(ODD) ? "mesh-test/only-on-n2:1" : "mesh-test/busybox:1";
        String routes = m.equals(ROUTED) ? "routes:\n  www: {component: %s.app, port: %d, domain: n3.test}\n".formatted(m, 8100 + i) : "";
        return """
                module: %1$s
                components:
                  %1$s.app:
                    image: %2$s
                    args: [sh, -c, "mkdir -p /www && echo %1$s > /www/index.html && exec httpd -f -p %3$d -h /www"]
                    volumes: {data: /data}
                    ports: [%3$d]
                    stop-timeout: 1s
                """.formatted(m, image, 8100 + i) + routes;
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            // the agents stop the process module's copies (an agent killed by the close would orphan its httpd)
            for (String node : DrainBed.NODES) {
                mesh.mesh("unassign", node, PROC);
            }
            mesh.mesh("push", "--wait", "--yes", "--timeout", "2m");
            bed.endProcesses(8100 + 2);
            try {
                mesh.engine("n2").removeImageCmd("mesh-test/only-on-n2:1").exec();
            } catch (RuntimeException e) {
                // gone with its node's engine already
            }
            mesh.close();
        }
        DrainBed.endShims(PROCESS);
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
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
        Map<String, String> before = bed.containers();
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
        Map<String, String> targets = new HashMap<>();
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
            targets.put(name, target);
            assertEquals(trees.get(name), DrainBed.tree(bed.volume(target, name, name.equals(PROC))),
                    name + "'s data (the sha256 of each file) differs on " + target);
            if (!name.equals(PROC)) {
                assertEquals(digests.get(name), digest(target, name), name + "'s data differs on " + target);
            }
        }
        assertEquals(MODULES - 1, count("moved"), d.toString());
        assertEquals(MODULES - 1, targets.size(), d.toString());
        assertTrue(mesh.ok("node", "list").contains("n2 (cordoned)"), mesh.ok("node", "list"));

        Map<String, String> after = bed.containers();
        List<String> replaced = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        before.forEach((name, id) -> {
            if (!after.containsKey(name)) {
                gone.add(name);
            } else if (!after.get(name).equals(id)) {
                replaced.add(name);
            }
        });
        List<String> added = after.keySet().stream().filter(n -> !before.containsKey(n)).sorted().toList();
        List<String> moved = targets.keySet().stream().filter(n -> !n.equals(PROC)).sorted().toList();
        assertEquals(List.of("n3/b3.server", "n4/b4.server"), replaced.stream().sorted().toList(),
                "exactly the binders of the moved names were replaced, nothing else on any node");
        gone.removeIf(n -> moved.stream().anyMatch(m -> n.equals("n2/" + m + ".app")));
        assertEquals(List.of(), gone, "no container is gone but a moved module's on n2 (its old copy keeps it, stopped)");
        assertEquals(List.of(), mesh.engine("n2").listContainersCmd().exec().stream().map(c -> c.getNames()[0].substring(1))
                .filter(c -> moved.contains(c.replaceFirst("\\.app$", ""))).toList(), "n2 runs none of the moved modules");
        assertEquals(moved.stream().map(n -> targets.get(n) + "/" + n + ".app").sorted().toList(), added,
                "each moved container module is on its target; nothing else was made");
        assertEquals(List.of(), bed.shims(PROCESS, "n2"), "n2 runs no copy of the process module");
        for (String[] binder : new String[][] {{"n3", "b3.server", "m1"}, {"n3", "b3.server", "m2"}, {"n4", "b4.server", "m3"}}) {
            List<String> hosts = List.of(mesh.engine(binder[0]).inspectContainerCmd(binder[1]).exec().getHostConfig().getExtraHosts());
            String to = binder[2] + ".internal:" + mesh.testbed(targets.get(binder[2])).address();
            assertTrue(hosts.contains(to), binder[1] + " resolves " + to + ": " + hosts);
        }
        PackagedMesh.await(ROUTE + " is served through n3's edge from " + targets.get(ROUTED), Duration.ofSeconds(30),
                () -> bed.page(ca, "n3", ROUTE).equals(ROUTED));
        assertEquals(List.of(targets.get(ROUTED)), runningOn(ROUTED), "the only copy that serves the route is the new node's");
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
        return bed.runningOn(module, module.equals(PROC) ? PROCESS : null);
    }

    String digest(String node, String module) throws Exception {
        return mesh.agent(node, "/v1/volumes/" + module + "/data/manifest?kind=container", Duration.ofMinutes(2)).get("digest").asText();
    }

}
