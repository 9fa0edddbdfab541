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
 * DrainIT drains n2 of an installed mesh ({@link InstalledMesh}: n1 the seat, n2 to n4) twice, each time of twelve
 * modules with data and their binders on the other nodes ({@link DrainFleet}). First the bad input is refused before
 * anything moves, naming it. Then must-show 1: {@code mesh drain n2 --to n3 --to n4 --parallel 2} of fleet {@code m}
 * (volumes of 1 to {@link #LARGEST_MB} MB, a process module, a module routed through n3's edge) moves all twelve and
 * the command exits 0: each module runs on n3 or n4 with its data byte-identical (the sha256 of every file of its
 * volume, and the agents' manifest digests), the route is served through the edge from the new node, exactly the
 * binders of the moved names are replaced and every other container on every node keeps its id, n2 is cordoned and
 * its engine runs none of them. Then must-show 2: n2 uncordoned, fleet {@code r} (small volumes, one module on an
 * image only n2's engine has) put on it and the same drain run with the controller killed -9 twice at random
 * moments: it ends by itself (the restarted controller carries it on) with 11 moved, checked as above, and the odd
 * one named with its reason and running on n2 still. In both no module ever runs on two nodes (looked at every 0.3 s).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class DrainIT {

    static final int MODULES = DrainFleet.MODULES;
    static final int LARGEST_MB = Integer.getInteger("mesh.drain.largest-mb", 200);
    /** Must-show 1's fleet: every module can move. */
    static final DrainFleet ALL = new DrainFleet("m", 8100, LARGEST_MB, false, "www");
    /** Must-show 2's fleet: its twelfth module's take is refused (its image is on n2's engine only). */
    static final DrainFleet ODD = new DrainFleet("r", 8120, 20, true, "web");
    static final List<DrainFleet> FLEETS = List.of(ALL, ODD);

    InstalledMesh mesh;
    DrainBed bed;
    Path dir;
    Path ca;
    final Map<String, String> digests = new HashMap<>();
    final Map<String, Map<String, String>> trees = new HashMap<>();

    @BeforeAll
    void raise() throws Exception {
        for (DrainFleet f : FLEETS) {
            DrainBed.endShims(f.process());
        }
        mesh = InstalledMesh.raise(4);
        bed = new DrainBed(mesh);
        mesh.engine("n2").tagImageCmd("mesh-test/busybox:1", "mesh-test/only-on-n2", "1").exec();
        dir = Files.createTempDirectory("mesh-drain");
        String bundle = bed.bundle(dir, "it/drain-proc:1");
        assertTrue(bundle.startsWith("it/drain-proc@sha256:"), bundle);
        for (DrainFleet f : FLEETS) {
            for (int i = 1; i <= MODULES; i++) {
                Files.writeString(dir.resolve(f.module(i) + ".yaml"), f.manifest(i));
            }
            for (DrainFleet.Binder b : f.binders()) {
                Files.writeString(dir.resolve(b.module() + ".yaml"), DrainFleet.manifest(b));
            }
        }
        bed.edge(dir);
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("node", "public-domain", "n3", "n3.test");
        put(ALL);
    }

    /** Puts the fleet on n2 and its binders on their nodes, fills its volumes and waits for its route through n3's edge. */
    void put(DrainFleet f) throws Exception {
        for (int i = 1; i <= MODULES; i++) {
            mesh.ok("assign", "n2", f.module(i));
        }
        for (DrainFleet.Binder b : f.binders()) {
            mesh.ok("assign", b.node(), b.module());
        }
        bed.endProcesses(f.ports() + 2);
        mesh.ok("push", "--wait", "--timeout", "5m");
        for (int i = 1; i <= MODULES; i++) {
            String m = f.module(i);
            Path volume = bed.volume("n2", m, m.equals(f.proc()));
            DrainBed.fill(volume, f.mb(i), f.ports() + i);
            trees.put(m, DrainBed.tree(volume));
            if (!m.equals(f.proc())) {
                digests.put(m, digest("n2", m));
            }
        }
        if (ca == null) {
            PackagedMesh.await("mesh route ca prints n3's edge's CA", Duration.ofSeconds(60),
                    () -> mesh.mesh("route", "ca", "n3").out().startsWith("-----BEGIN CERTIFICATE-----"));
            ca = dir.resolve("edge-ca.pem");
            Files.writeString(ca, mesh.ok("route", "ca", "n3"));
        }
        PackagedMesh.await(f.host() + " is served through n3's edge from n2", Duration.ofSeconds(60),
                () -> bed.page(ca, "n3", f.host()).equals(f.routed()));
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            // the agents stop the process modules' copies (an agent killed by the close would orphan its httpd)
            for (String node : DrainBed.NODES) {
                for (DrainFleet f : FLEETS) {
                    mesh.mesh("unassign", node, f.proc());
                }
            }
            mesh.mesh("push", "--wait", "--yes", "--timeout", "2m");
            for (DrainFleet f : FLEETS) {
                bed.endProcesses(f.ports() + 2);
            }
            try {
                mesh.engine("n2").removeImageCmd(DrainFleet.ONLY_ON_N2).exec();
            } catch (RuntimeException e) {
                // gone with its node's engine already
            }
            mesh.close();
        }
        for (DrainFleet f : FLEETS) {
            DrainBed.endShims(f.process());
        }
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
            refused("node n4 is cordoned", "take", "n4", ALL.module(1));
            refused("node n4 is cordoned", "assign", "n4", ALL.module(1));
        } finally {
            mesh.ok("node", "uncordon", "n4");
        }
        assertTrue(mesh.json("drain", "--status").isEmpty(), "a refused drain left a record");
        assertFalse(mesh.ok("node", "list").contains("(cordoned)"), mesh.ok("node", "list"));
        for (int i = 1; i <= MODULES; i++) {
            assertEquals(List.of("n2"), runningOn(ALL, ALL.module(i)), ALL.module(i) + " moved on a refused drain");
        }
        String plan = mesh.ok("drain", "n2", "--to", "n3", "--to", "n4", "--parallel", "2", "--dry-run");
        assertTrue(plan.contains("dry run, nothing changed"), plan);
        assertEquals(MODULES, plan.lines().filter(l -> l.matches("m\\d+\\s+pending\\s+n[34].*")).count(), plan);
        assertFalse(mesh.ok("node", "list").contains("(cordoned)"), "a dry run cordoned n2");
    }

    /** Must-show 1, as written: a drain of its own in which nothing is refused. */
    @Test
    @Order(2)
    void theDrainMovesAll12ModulesOntoN3OrN4WithTheirDataAndN2RunsNoneOfThem() throws Exception {
        Map<String, String> before = bed.containers();
        File out = File.createTempFile("mesh-drain", ".out");
        long began = System.nanoTime();
        boolean exited;
        Process cli;
        try (TwoCopies twice = new TwoCopies(ALL)) {
            cli = start(out, "drain", "n2", "--to", "n3", "--to", "n4", "--parallel", "2");
            try {
                exited = cli.waitFor(20, TimeUnit.MINUTES);
            } finally {
                cli.destroyForcibly();
            }
            twice.close();
            assertEquals(Map.of(), twice.seen, "modules seen running on two nodes at once");
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        String printed = Files.readString(out.toPath());
        Files.delete(out.toPath());
        System.err.println(printed);
        assertTrue(exited, "mesh drain did not end within 20 minutes: " + printed);
        assertEquals(0, cli.exitValue(), "mesh drain exits 0 when every module moved: " + printed);
        JsonNode d = mesh.controller("/v1/mesh/drains/n2");
        figures("must-show 1", ALL, d, seconds);
        assertEquals("done", d.path("state").asText(), d.toString());
        Map<String, String> targets = moved(ALL, d);
        assertEquals(MODULES, count("moved"), d.toString());
        assertEquals(MODULES, targets.size(), d.toString());
        assertTrue(mesh.ok("node", "list").contains("n2 (cordoned)"), mesh.ok("node", "list"));
        onlyTheMovedChanged(ALL, before, targets);
    }

    /** Must-show 2: n2 uncordoned and given fleet r, then the same drain through two kill -9s with one refused target. */
    @Test
    @Order(3)
    void theDrainEndsWith11MovedAndOneNamedThroughTwoControllerKillsNeverTwoCopies() throws Exception {
        mesh.ok("node", "uncordon", "n2");
        put(ODD);
        Map<String, String> before = bed.containers();
        File out = File.createTempFile("mesh-drain", ".out");
        Random random = new Random();
        long began = System.nanoTime();
        try (TwoCopies twice = new TwoCopies(ODD)) {
            Process cli = start(out, "drain", "n2", "--to", "n3", "--to", "n4", "--parallel", "2");
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
                cli.destroyForcibly();
            }
            twice.close();
            assertEquals(Map.of(), twice.seen, "modules seen running on two nodes at once");
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        System.err.println(Files.readString(out.toPath()));
        Files.delete(out.toPath());
        JsonNode d = mesh.controller("/v1/mesh/drains/n2");
        System.err.println(mesh.ok("drain", "--status", "n2"));
        figures("must-show 2", ODD, d, seconds);
        assertEquals("done", d.path("state").asText(), d.toString());
        Map<String, String> targets = moved(ODD, d);
        assertEquals(MODULES - 1, count("moved"), d.toString());
        assertEquals(MODULES - 1, targets.size(), d.toString());
        assertTrue(mesh.ok("node", "list").contains("n2 (cordoned)"), mesh.ok("node", "list"));
        onlyTheMovedChanged(ODD, before, targets);
    }

    /**
     * Checks each module of the drain: the mesh's own are left, the fleet's odd one failed naming its image and runs on
     * n2 alone, every other moved to n3 or n4, runs there alone, with its data byte-identical. Returns module to target.
     */
    Map<String, String> moved(DrainFleet f, JsonNode d) throws Exception {
        Map<String, String> targets = new HashMap<>();
        for (JsonNode m : d.path("modules")) {
            String name = m.path("module").asText();
            if (!f.isModule(name)) {
                assertEquals("left", m.path("state").asText(), "a mesh module of n2 is named and left: " + m);
                continue;
            }
            if (name.equals(f.refused())) {
                assertEquals("failed", m.path("state").asText(), m.toString());
                assertTrue(m.path("reason").asText().contains("only-on-n2"), m.toString());
                assertEquals(List.of("n2"), runningOn(f, name), "the refused module does not run on n2 alone");
                continue;
            }
            assertEquals("moved", m.path("state").asText(), m.toString());
            String target = m.path("target").asText();
            assertTrue(target.equals("n3") || target.equals("n4"), m.toString());
            assertEquals(List.of(target), runningOn(f, name), name);
            targets.put(name, target);
            assertEquals(trees.get(name), DrainBed.tree(bed.volume(target, name, name.equals(f.proc()))),
                    name + "'s data (the sha256 of each file) differs on " + target);
            if (!name.equals(f.proc())) {
                assertEquals(digests.get(name), digest(target, name), name + "'s data differs on " + target);
            }
        }
        return targets;
    }

    /**
     * Checks the engines after the drain: exactly the binders of the moved names were replaced (and resolve them to
     * the new node), every other container on every node keeps its id, each moved container module was made on its
     * target and nothing else was made, n2's engine runs none of them, and the route is served from its new node.
     */
    void onlyTheMovedChanged(DrainFleet f, Map<String, String> before, Map<String, String> targets) throws Exception {
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
        List<String> moved = targets.keySet().stream().filter(n -> !n.equals(f.proc())).sorted().toList();
        assertEquals(f.replaced(targets.keySet()), replaced.stream().sorted().toList(),
                "exactly the binders of the moved names were replaced, nothing else on any node");
        gone.removeIf(n -> moved.stream().anyMatch(m -> n.equals("n2/" + m + ".app")));
        assertEquals(List.of(), gone, "no container is gone but a moved module's on n2 (its old copy keeps it, stopped)");
        assertEquals(List.of(), mesh.engine("n2").listContainersCmd().exec().stream().map(c -> c.getNames()[0].substring(1))
                .filter(c -> moved.contains(c.replaceFirst("\\.app$", ""))).toList(), "n2 runs none of the moved modules");
        assertEquals(moved.stream().map(n -> targets.get(n) + "/" + n + ".app").sorted().toList(), added,
                "each moved container module is on its target; nothing else was made");
        assertEquals(List.of(), bed.shims(f.process(), "n2"), "n2 runs no copy of the process module");
        for (DrainFleet.Binder b : f.binders()) {
            for (String bound : b.binds().stream().filter(targets::containsKey).toList()) {
                List<String> hosts = List.of(mesh.engine(b.node()).inspectContainerCmd(b.module() + ".server").exec()
                        .getHostConfig().getExtraHosts());
                String to = bound + ".internal:" + mesh.testbed(targets.get(bound)).address();
                assertTrue(hosts.contains(to), b.module() + " resolves " + to + ": " + hosts);
            }
        }
        PackagedMesh.await(f.host() + " is served through n3's edge from " + targets.get(f.routed()), Duration.ofSeconds(30),
                () -> bed.page(ca, "n3", f.host()).equals(f.routed()));
        assertEquals(List.of(targets.get(f.routed())), runningOn(f, f.routed()), "the only copy that serves the route is the new node's");
    }

    /** Prints the drain's measured figures: its time, and each moved module's longest downtime. */
    static void figures(String which, DrainFleet f, JsonNode d, double seconds) {
        long mb = 0;
        for (int i = 1; i <= MODULES; i++) {
            mb += f.mb(i);
        }
        String longest = "none measured";
        long most = -1;
        for (JsonNode m : d.path("modules")) {
            if (m.path("downtimeMs").isNumber() && m.path("downtimeMs").asLong() > most) {
                most = m.path("downtimeMs").asLong();
                longest = "%.1f s (%s)".formatted(most / 1000.0, m.path("module").asText());
            }
        }
        System.err.printf("DrainIT %s: %d modules (%d MB) drained off n2 at K = 2 in %.1f s; longest downtime %s%n",
                which, MODULES, mb, seconds, longest);
    }

    /** Looks every 0.3 s, until closed, for a module of the fleet running on two nodes at once. */
    final class TwoCopies implements AutoCloseable {

        final Map<String, List<String>> seen = new ConcurrentHashMap<>();
        private final AtomicBoolean looking = new AtomicBoolean(true);
        private final Thread looker;

        TwoCopies(DrainFleet f) {
            looker = Thread.ofVirtual().start(() -> {
                while (looking.get()) {
                    for (int i = 1; i <= MODULES; i++) {
                        List<String> on = runningOn(f, f.module(i));
                        if (on.size() > 1) {
                            seen.putIfAbsent(f.module(i), on);
                        }
                    }
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        @Override
        public void close() throws InterruptedException {
            looking.set(false);
            looker.join();
        }
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

    List<String> runningOn(DrainFleet f, String module) {
        return bed.runningOn(module, module.equals(f.proc()) ? f.process() : null);
    }

    String digest(String node, String module) throws Exception {
        return mesh.agent(node, "/v1/volumes/" + module + "/data/manifest?kind=container", Duration.ofMinutes(2)).get("digest").asText();
    }

}
