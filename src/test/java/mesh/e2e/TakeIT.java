package mesh.e2e;

import static mesh.e2e.MeshE2EIT.json;
import static mesh.e2e.MeshE2EIT.quietly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
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
 * TakeIT moves a module with its data between three simulated nodes of a mesh raised by {@code mesh install}
 * and {@code --join} ({@link InstalledMesh}: HTTPS, the agents and the controller as installed), through the
 * CLI: module tk has a volume with one 200 MB file and one with
 * 2,000 small files and links, and its component appends a marker to its data on every start.
 * Taken from n1 to n2, the copy is byte-identical, tk.internal resolves to n2 in exactly its binders
 * (replaced on n1 and n3; every other container keeps its id) and n1 keeps its old copy and runs
 * nothing of tk. A byte changed on the target between copy and verify fails the take naming the file,
 * tk runs on the source again and the target's copy is gone. {@code --back} carries the data written
 * since back; {@code --forget-old} removes only the old copy. The controller and both agents killed
 * mid-take never leave two copies running, and a route follows its module only after the switch.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class TakeIT {

    static final List<String> NAMES = List.of("n1", "n2", "n3");
    static final String TK = "tk";
    static final String APP = "tk.app";
    static final int SMALL_FILES = 2_000;
    static final int LARGE_MB = 200;
    /** Each component: a busybox loop that stops at once; tk's writes a marker on its data when it starts. */
    static final String LOOP = "trap 'exit 0' TERM; while true; do sleep 1; done";

    final String run = UUID.randomUUID().toString().substring(0, 8);
    final List<Path> temps = new ArrayList<>();
    InstalledMesh installed;
    /** The controller's test hook (MESH_TAKE_TEST_HOLD): a step's name holds the take before that step. */
    Path hold;
    /** The agents' test hook (MESH_HOST_TAKE_TEST_HOLD): {@code copy} pauses an archive midway, {@code verify} a manifest. */
    Path agentHold;
    /** The agents' settings beyond install's: the hold file, and a pass a second. */
    Map<String, String> agentEnv;

    @BeforeAll
    void raiseTheMesh() throws Exception {
        installed = InstalledMesh.raise(3);
        hold = temp("mesh-take-hold").resolve("hold");
        agentHold = hold.resolveSibling("agent-hold");
        installed.controllerEnv(Map.of("MESH_TAKE_TEST_HOLD", hold.toString(), "MESH_TAKE_TEST_DEADLINE", "switch=30s"));
        agentEnv = Map.of("MESH_HOST_INTERVAL", "1s", "MESH_HOST_TAKE_TEST_HOLD", agentHold.toString());
        installed.restartAgents(NAMES, agentEnv);
        Path dir = temp("mesh-take-catalogue");
        Files.writeString(dir.resolve("tk.yaml"), """
                module: tk
                components:
                  tk.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "echo started >> /files/markers.log; %s"]
                    volumes: {bulk: /bulk, files: /files}
                    stop-timeout: 1s
                """.formatted(LOOP));
        for (String m : List.of("bind1", "bind3")) {
            module(dir, m, "[tk.internal]");
        }
        for (String m : List.of("idle1", "idle2", "idle3")) {
            module(dir, m, "[]");
        }
        module(dir, "sitebind", "[site.internal]");
        Files.writeString(dir.resolve("site.yaml"), """
                module: site
                components:
                  site.server:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "mkdir -p /www && echo site >/www/index.html && exec httpd -f -p 8090 -h /www"]
                    volumes: {www: /www}
                    ports: [8090]
                    stop-timeout: 1s
                routes:
                  www: {component: site.server, port: 8090}
                """);
        try (var in = getClass().getResourceAsStream("/mesh/edge/route-proxy.yaml")) {
            String edge = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .replaceFirst("image: caddy:2@sha256:[0-9a-f]+", "image: mesh-test/caddy:2.11")
                    .replace("MESH_EDGE_TLS: acme", "MESH_EDGE_TLS: internal").replace("stop-timeout: 10s", "stop-timeout: 3s");
            Files.writeString(dir.resolve("route-proxy.yaml"), edge);
        }
        ok("catalogue", "add", dir.toString());
        for (String[] a : new String[][] {{"n1", TK}, {"n1", "bind1"}, {"n1", "idle1"}, {"n2", "idle2"}, {"n3", "bind3"},
            {"n3", "idle3"}, {"n1", "site"}, {"n2", "sitebind"}}) {
            ok("assign", a[0], a[1]);
        }
        ok("node", "public-domain", "n3", "n3.test");
        ok("push", "--wait");
        fill(volume("n1", "bulk"), volume("n1", "files"));
    }

    @AfterAll
    void tearDown() throws Exception {
        if (installed != null) {
            installed.close();
        }
        for (Path p : temps) {
            PackagedMesh.deleteTree(p);
        }
    }

    /** Must-show 1: n1 to n2, byte-identical, names in exactly the binders, n1 keeps its old copy and runs nothing of tk. */
    @Test
    @Order(1)
    void aModuleTakenFromN1ToN2RunsThereWithItsDataAndItsNameMovesInExactlyItsBinders() throws Exception {
        Map<String, String> before = containers();
        assertEquals("n1", roster().get("tk.internal"));
        String out = ok("take", "n2", TK);
        for (String step : List.of("step preflight", "step pre-copy", "step fence", "step copy", "step verify", "step start",
            "step switch", "step push", "tk runs on n2")) {
            assertTrue(out.contains(step), "says " + step + ":\n" + out);
        }
        for (String pass : List.of("pass 1 bulk (module running): ", "pass 1 files (module running): ", "delta bulk (module stopped): ",
            "delta files (module stopped): ")) {
            assertTrue(out.contains(pass), "says each pass with its bytes and files: " + pass + "\n" + out);
        }

        assertEquals("n2", roster().get("tk.internal"));
        assertTrue(runs("n2", APP), "tk runs on n2");
        assertFalse(runs("n1", APP), "n1 runs nothing of tk");
        Map<String, String> after = containers();
        List<String> replaced = new ArrayList<>();
        before.forEach((name, id) -> {
            if (!id.equals(after.get(name))) {
                replaced.add(name);
            }
        });
        replaced.remove("n1/" + APP);
        assertEquals(List.of("n1/bind1.server", "n3/bind3.server"), replaced, "exactly tk's binders were replaced");
        for (String binder : List.of("n1/bind1.server", "n3/bind3.server")) {
            String[] at = binder.split("/");
            List<String> hosts = List.of(installed.engine(at[0]).inspectContainerCmd(at[1]).exec().getHostConfig().getExtraHosts());
            assertTrue(hosts.contains("tk.internal:" + installed.testbed("n2").address()), binder + " resolves tk.internal to n2: " + hosts);
        }

        assertEquals(tree(volume("n1", "bulk")), tree(volume("n2", "bulk")), "the 200 MB volume is byte-identical on n2");
        Map<String, String> onN1 = tree(volume("n1", "files"));
        Map<String, String> onN2 = tree(volume("n2", "files"));
        assertEquals(SMALL_FILES + 20 + 3 + 2, onN1.size(), "the files, their folders, the links, the marker and the root");
        assertEquals("started\n", Files.readString(volume("n1", "files").resolve("markers.log")));
        assertEquals("started\nstarted\n", Files.readString(volume("n2", "files").resolve("markers.log")),
                "tk started on n2 on the copied data");
        onN1.remove("markers.log");
        onN2.remove("markers.log");
        assertEquals(onN1, onN2, "the small files and links are identical on n2");
        assertTrue(volumeNames("n1").containsAll(List.of("tk_bulk", "tk_files")), "n1 keeps its old copy");

        PackagedMesh.Result again = mesh("take", "n2", TK);
        assertEquals(1, again.exit(), again.toString());
        assertTrue(again.err().contains("module tk already runs on n2: nothing to take"), again.toString());
    }

    /**
     * Must-show 3: a byte changed on the target between the copy (the delta after the fence) and the verify fails the
     * take naming the file; n2 runs tk again, n3's copy is gone.
     */
    @Test
    @Order(2)
    void aByteChangedOnTheTargetFailsTheTakeNamingTheFileAndRollsBack() throws Exception {
        Map<String, String> before = containers();
        Files.writeString(hold, "verify");
        CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(() -> mesh("take", "n3", TK), PackagedMesh.OWN_THREAD);
        awaitTake(take, "the take waits before its verify", Duration.ofSeconds(90), TK, "n2", "n3", "verify");
        Path victim = volume("n3", "files").resolve("d03/f0042.txt");
        byte[] bytes = Files.readAllBytes(victim);
        bytes[0] ^= 0x01;
        Files.write(victim, bytes);
        Files.delete(hold);
        PackagedMesh.Result r = take.get();
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains("the take failed and was rolled back: verify: volume files: d03/f0042.txt: content differs"),
                r.toString());
        assertTrue(r.out().contains("tk runs on n2 again"), r.toString());

        PackagedMesh.await("tk runs on n2 again", Duration.ofSeconds(30), () -> quietly(() -> runs("n2", APP)));
        assertFalse(runs("n3", APP), "n3 runs nothing of tk");
        assertFalse(volumeNames("n3").stream().anyMatch(v -> v.startsWith("tk_")), "n3's copy is gone: " + volumeNames("n3"));
        assertEquals("n2", roster().get("tk.internal"));
        Map<String, String> after = containers();
        after.remove("n2/" + APP);
        before.remove("n2/" + APP);
        assertEquals(before, after, "a take that rolled back replaced nothing else");
    }

    /** Must-show 4: --back brings tk to n1 with what was written on n2; --forget-old removes only n2's old copy. */
    @Test
    @Order(3)
    void backCarriesTheNewDataHomeAndForgetOldRemovesOnlyTheOldCopy() throws Exception {
        Files.writeString(volume("n2", "files").resolve("written-on-n2.txt"), "written while tk ran on n2\n");
        String out = ok("take", "--back", TK);
        assertTrue(out.contains("note: data written on n2 since the module was taken there is carried back to n1"), out);
        assertTrue(out.contains("tk runs on n1"), out);
        assertEquals("n1", roster().get("tk.internal"));
        assertTrue(runs("n1", APP));
        assertFalse(runs("n2", APP));
        assertEquals("written while tk ran on n2\n", Files.readString(volume("n1", "files").resolve("written-on-n2.txt")));
        assertEquals(tree(volume("n2", "bulk")), tree(volume("n1", "bulk")));

        List<String> n1Volumes = volumeNames("n1");
        String forgot = ok("take", "--forget-old", TK);
        assertTrue(forgot.contains("removed the old copy of tk on n2 left by the take at epoch "), forgot);
        assertFalse(forgot.contains("on n1"), forgot);
        assertFalse(volumeNames("n2").stream().anyMatch(v -> v.startsWith("tk_")), "n2's old copy is gone: " + volumeNames("n2"));
        assertTrue(volumeNames("n2").contains("idle2_data"), "and nothing else of n2's: " + volumeNames("n2"));
        assertEquals(n1Volumes, volumeNames("n1"), "n1's volumes, which tk runs on, are untouched");
        assertTrue(runs("n1", APP));

        PackagedMesh.Result none = mesh("take", "--forget-old", TK);
        assertEquals(1, none.exit(), none.toString());
        assertTrue(none.err().contains("module tk has no old copy"), none.toString());

        String audit = ok("audit");
        assertTrue(audit.contains("module tk: taken back to n1 from n2 begun, epoch "), audit);
        assertTrue(audit.contains("module tk: the old copy on n2 left at epoch "), audit);
    }

    /** Bad input is refused by name and changes nothing. */
    @Test
    @Order(4)
    void badInputIsRefusedByNameAndChangesNothing() throws Exception {
        Map<String, String> before = containers();
        Map<String, String> roster = roster();
        Map<List<String>, String> cases = new LinkedHashMap<>();
        cases.put(List.of("take", "n9", TK), "unknown node n9; 'mesh node list' shows the nodes");
        cases.put(List.of("take", "n2", "nosuch"), "unknown module nosuch; 'mesh catalogue list' shows the modules");
        cases.put(List.of("take", "n1", TK), "module tk already runs on n1: nothing to take");
        cases.put(List.of("take", "--back", "idle2"), "module idle2 has nothing to go back to: no take brought it to n2");
        cases.put(List.of("take", "--dry-run", "n2", "nosuch"), "unknown module nosuch");
        List<String> wrong = new ArrayList<>();
        cases.forEach((args, said) -> {
            PackagedMesh.Result r = mesh(args.toArray(String[]::new));
            if (r.exit() != 1 || !r.err().contains(said)) {
                wrong.add(String.join(" ", args) + " -> " + r);
            }
        });
        assertEquals(List.of(), wrong);
        String dry = ok("take", "--dry-run", "n3", TK);
        assertTrue(dry.contains("dry run, nothing changed") && dry.contains("pre-copy: pass 1 of volume bulk (")
                && dry.contains("copy: what changed in volume bulk since the pre-copy") && dry.contains("from n1 to n3"), dry);
        String whole = ok("take", "--dry-run", "--stop-and-copy", "n3", TK);
        assertTrue(whole.contains("copy: volume bulk (") && !whole.contains("pre-copy"), whole);
        JsonNode plan = json(ok("take", "n3", TK, "--dry-run", "-o", "json"));
        assertEquals("dry-run", plan.get("state").asText(), plan.toString());
        assertEquals(12, plan.get("steps").size(), "preflight to old-copy, two volumes, a pre-copy pass of each: " + plan);
        assertEquals(List.of("bulk", "files"), List.of(plan.get("volumes").get(0).get("name").asText(),
                plan.get("volumes").get(1).get("name").asText()));
        assertEquals(before, containers());
        assertEquals(roster, roster());
    }

    /**
     * Must-show 2, in part: while a take waits before its verify (the copy done, the source fenced), the
     * controller, the source's agent and the target's agent are each killed with SIGKILL and started again;
     * the restarted controller carries the take on by itself and it ends done. Every 200 ms throughout, tk
     * runs on at most one node; the source's data is the same byte for byte at the end as when it was fenced.
     */
    @Test
    @Order(5)
    void aTakeWhoseControllerAndAgentsAreKilledCarriesOnAndNeverRunsTwoCopies() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> twice = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean watching = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread watcher = Thread.ofVirtual().start(() -> {
            while (watching.get()) {
                List<String> on = NAMES.stream().filter(n -> quietly(() -> runs(n, APP))).toList();
                if (on.size() > 1) {
                    twice.compareAndSet(null, "tk ran on " + on + " at once");
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        Files.writeString(hold, "verify");
        CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(() -> mesh("take", "n3", TK), PackagedMesh.OWN_THREAD);
        awaitTake(take, "the take waits before its verify", Duration.ofSeconds(90), TK, "n1", "n3", "verify");
        Map<String, String> bulk = tree(volume("n1", "bulk"));
        Map<String, String> files = tree(volume("n1", "files"));

        // the controller and both agents die (SIGKILL); the agents are started again by their install line, and
        // the seat's agent starts the controller again, as its supervisor
        installed.killController();
        PackagedMesh.Result cut = take.get();
        assertEquals(1, cut.exit(), "the CLI following the take loses its controller: " + cut);
        for (String node : List.of("n1", "n3")) {
            installed.killAgent(node);
        }
        for (String node : List.of("n1", "n3")) {
            installed.startAgent(node, agentEnv);
        }
        installed.awaitController(Duration.ofSeconds(90));
        PackagedMesh.Result busy = mesh("take", "n3", TK);
        assertEquals(1, busy.exit(), busy.toString());
        assertTrue(busy.err().contains("a take of module tk to n3 is already running (step verify)"),
                "the restarted controller carries the take on by itself: " + busy);
        Files.delete(hold);
        PackagedMesh.await("tk.internal resolves to n3", Duration.ofSeconds(90), () -> quietly(() -> "n3".equals(rosterNow().get("tk.internal"))));
        PackagedMesh.await("tk runs on n3", Duration.ofSeconds(60), () -> quietly(() -> runs("n3", APP)));
        PackagedMesh.await("the take is done", Duration.ofSeconds(60), () -> quietly(() -> take(TK) == null));
        watching.set(false);
        watcher.join();
        assertEquals(null, twice.get());
        assertFalse(runs("n1", APP));
        assertEquals(bulk, tree(volume("n1", "bulk")), "no byte of the source's data changed");
        assertEquals(files, tree(volume("n1", "files")), "no byte of the source's data changed");
        Map<String, String> onN3 = tree(volume("n3", "files"));
        files.remove("markers.log");
        onN3.remove("markers.log");
        assertEquals(files, onN3, "n3 has the data");
    }

    /**
     * Must-show 5: module site, with route www, taken from n1 to n3 (public domain n3.test) gives
     * www.n3.test only after the switch (mesh roster before, while the take waits, after), and the push
     * replaces only its binder (sitebind on n2); n3's edge is created for it; every other container is kept.
     */
    @Test
    @Order(6)
    void aRouteFollowsTheTakeOnlyAfterTheSwitchAndOnlyBindersAreReplaced() throws Exception {
        assertEquals("n1", roster().get("site.internal"));
        assertFalse(roster().containsKey("www.n3.test"), "no route while site runs on n1 (no public domain)");
        Map<String, String> before = containers();
        Files.writeString(hold, "verify");
        CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(() -> mesh("take", "n3", "site"), PackagedMesh.OWN_THREAD);
        awaitTake(take, "the take waits before its verify", Duration.ofSeconds(90), "site", "n1", "n3", null);
        awaitTake(take, "the take reaches its verify", Duration.ofSeconds(60), "site", "n1", "n3", "verify");
        assertFalse(roster().containsKey("www.n3.test"), "the route waits for the switch");
        assertEquals("n1", roster().get("site.internal"));
        Files.delete(hold);
        PackagedMesh.Result r = take.get();
        assertEquals(0, r.exit(), r.toString());
        assertEquals("n3", roster().get("www.n3.test"), "the route resolves to n3 after the switch");
        assertEquals("n3", roster().get("site.internal"));

        Map<String, String> after = containers();
        List<String> replaced = new ArrayList<>();
        List<String> added = new ArrayList<>();
        after.forEach((name, id) -> {
            if (!before.containsKey(name)) {
                added.add(name);
            } else if (!before.get(name).equals(id)) {
                replaced.add(name);
            }
        });
        assertEquals(List.of("n2/sitebind.server"), replaced, "only site's binder was replaced");
        assertEquals(List.of("n3/route-proxy.server", "n3/site.server"), added.stream().sorted().toList());
        assertTrue(runs("n3", "site.server"));
        assertFalse(runs("n1", "site.server"));
    }

    /**
     * Must-show 2, the controller's part at two more steps: killed before the start (the data verified,
     * the source fenced) and again after the switch, before the push. Each restarted controller carries
     * the take on; the names have moved at the switch already, and the push that follows replaces the
     * binders; tk never runs on two nodes.
     */
    @Test
    @Order(7)
    void aControllerKilledBeforeTheStartAndAfterTheSwitchCarriesTheTakeOn() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> twice = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean watching = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread watcher = Thread.ofVirtual().start(() -> {
            while (watching.get()) {
                List<String> on = NAMES.stream().filter(n -> quietly(() -> runs(n, APP))).toList();
                if (on.size() > 1) {
                    twice.compareAndSet(null, "tk ran on " + on + " at once");
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        Files.writeString(hold, "start");
        CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(() -> mesh("take", "n2", TK), PackagedMesh.OWN_THREAD);
        awaitTake(take, "the take waits before its start", Duration.ofSeconds(90), TK, "n3", "n2", "start");
        restartController();
        assertEquals(1, take.get().exit());
        Files.writeString(hold, "push");
        PackagedMesh.await("the take waits before its push", Duration.ofSeconds(90),
                () -> quietly(() -> takeAt(TK, "n3", "n2", "push")));
        assertEquals("n2", roster().get("tk.internal"), "the switch moved the name before the push");
        assertTrue(runs("n2", APP));
        List<String> stale = installed.engine("n1").inspectContainerCmd("bind1.server").exec().getHostConfig().getExtraHosts() == null
                ? List.of() : List.of(installed.engine("n1").inspectContainerCmd("bind1.server").exec().getHostConfig().getExtraHosts());
        assertTrue(stale.contains("tk.internal:" + installed.testbed("n3").address()), "the binder waits for the push: " + stale);
        restartController();
        Files.delete(hold);
        PackagedMesh.await("the push after the switch reaches the binders", Duration.ofSeconds(90), () -> quietly(() -> List.of(
                installed.engine("n1").inspectContainerCmd("bind1.server").exec().getHostConfig().getExtraHosts())
                .contains("tk.internal:" + installed.testbed("n2").address())));
        PackagedMesh.await("the take is done", Duration.ofSeconds(60), () -> quietly(() -> take(TK) == null));
        watching.set(false);
        watcher.join();
        assertEquals(null, twice.get());
        assertFalse(runs("n3", APP));
    }

    /**
     * Must-show 2, the agents' part in the middle of a stream: the source's and the target's agents are both
     * killed (SIGKILL) while the archive streams from n2 to n1 (paused after its first 64 KiB by the agents'
     * test hook), and again while the source makes its manifest in the verify. Each time the take rolls
     * back once the agents are back (by itself, or carried on by {@code mesh take} again): tk runs on n2
     * again, n1's copy is gone, tk never ran on two nodes (checked every 200 ms) and no byte of n2's data
     * changed but tk's start marker.
     */
    @Test
    @Order(8)
    void agentsKilledDuringTheCopyAndDuringTheVerifyRollTheTakeBack() throws Exception {
        assertTrue(runs("n2", APP), "tk runs on n2 when this begins");
        java.util.concurrent.atomic.AtomicReference<String> twice = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean watching = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread watcher = Thread.ofVirtual().start(() -> {
            while (watching.get()) {
                List<String> on = NAMES.stream().filter(n -> quietly(() -> runs(n, APP))).toList();
                if (on.size() > 1) {
                    twice.compareAndSet(null, "tk ran on " + on + " at once");
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        Map<String, String> bulk = tree(volume("n2", "bulk"));
        Map<String, String> files = tree(volume("n2", "files"));
        files.remove("markers.log");
        String markers = Files.readString(volume("n2", "files").resolve("markers.log"));
        try {
            for (String step : List.of("copy", "verify")) {
                Files.writeString(agentHold, step);
                CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(() -> mesh("take", "n1", TK), PackagedMesh.OWN_THREAD);
                awaitTake(take, "the take reaches its " + step, Duration.ofSeconds(90), TK, "n2", "n1", step);
                Thread.sleep(1_000);
                assertTrue(mesh("status").out().contains("step " + step), "the agents' hook holds the " + step + " midway");
                for (String node : List.of("n2", "n1")) {
                    installed.killAgent(node);
                }
                for (String node : List.of("n2", "n1")) {
                    installed.startAgent(node, agentEnv);
                }
                PackagedMesh.Result r = take.get();
                if (!r.out().contains("the take failed and was rolled back")) {
                    r = mesh("take", "n1", TK);
                }
                assertTrue(r.out().contains("the take failed and was rolled back: " + step), "killed during the " + step + ": " + r);
                PackagedMesh.await("tk runs on n2 again", Duration.ofSeconds(60), () -> quietly(() -> runs("n2", APP)));
                assertFalse(runs("n1", APP), "n1 runs nothing of tk");
                assertFalse(mesh("status").out().contains("take tk"), "no take is under way");
                assertEquals("n2", roster().get("tk.internal"));
            }
        } finally {
            Files.deleteIfExists(agentHold);
            watching.set(false);
            watcher.join();
        }
        assertEquals(null, twice.get());
        assertFalse(volumeNames("n1").stream().anyMatch(v -> v.startsWith("tk_")), "n1's copies are gone: " + volumeNames("n1"));
        assertEquals(bulk, tree(volume("n2", "bulk")), "no byte of the source's data changed");
        Map<String, String> now = tree(volume("n2", "files"));
        now.remove("markers.log");
        assertEquals(files, now, "no byte of the source's data changed");
        assertTrue(Files.readString(volume("n2", "files").resolve("markers.log")).startsWith(markers), "the markers only grew");
    }

    /**
     * The preflight asks the target for the module's images (pulling what it lacks) before it fences
     * anything: module only1, whose image is tagged on n1's engine alone and is in no registry, taken to
     * n2 is refused naming the image, and keeps running on n1 in the same container, never stopped.
     */
    @Test
    @Order(9)
    void aTakeToANodeThatCannotGetTheModulesImageIsRefusedByItsNameBeforeAnyFence() throws Exception {
        String image = "mesh-test/only-n1:" + run;
        DockerClient n1 = installed.engine("n1");
        n1.tagImageCmd("mesh-test/busybox:1", "mesh-test/only-n1", run).exec();
        try {
            Path dir = temp("mesh-take-only");
            Files.writeString(dir.resolve("only1.yaml"), """
                    module: only1
                    components:
                      only1.server:
                        image: %s
                        args: [sh, -c, "%s"]
                        stop-timeout: 1s
                    """.formatted(image, LOOP));
            ok("catalogue", "add", dir.toString());
            ok("assign", "n1", "only1");
            ok("push", "--wait");
            PackagedMesh.await("only1 runs on n1", Duration.ofSeconds(60), () -> quietly(() -> runs("n1", "only1.server")));
            String started = n1.inspectContainerCmd("only1.server").exec().getState().getStartedAt();
            Map<String, String> before = containers();

            PackagedMesh.Result r = mesh("take", "n2", "only1");
            assertEquals(1, r.exit(), r.toString());
            assertTrue((r.out() + r.err()).contains("node n2 lacks image " + image + " of module only1"), r.toString());
            assertTrue((r.out() + r.err()).contains("nothing was fenced"), r.toString());
            assertEquals(before, containers(), "nothing was created or replaced");
            assertTrue(runs("n1", "only1.server"), "only1 still runs on n1");
            assertEquals(started, n1.inspectContainerCmd("only1.server").exec().getState().getStartedAt(),
                    "only1 was never stopped on n1");
            assertEquals("n1", roster().get("only1.internal"));
        } finally {
            quietly(() -> {
                n1.removeImageCmd(image).withForce(true).exec();
                return true;
            });
        }
    }

    /**
     * The pre-copy (docs/take.md): module wr keeps writing while it is pre-copied (a line appended, a file made, renamed and
     * one deleted, a link repointed, folders made and removed, every 50 ms) beside a 200 MB file; taken n1 → n2 it
     * arrives byte-identical: held before its start (the controller's hook), n1 fenced and stopped and n2 not yet
     * started, both volumes are the same entry by entry; the delta after the fence sent files and deleted some; wr then
     * runs on n2 and goes on appending to the log it wrote on n1.
     */
    @Test
    @Order(20)
    void aModuleThatKeepsWritingDuringThePreCopyArrivesByteIdentical() throws Exception {
        Path dir = temp("mesh-take-writer");
        String script = "trap 'exit 0' TERM; i=0; while true; do i=$((i+1)); echo line $i >> /live/append.log;"
                + " echo $i > /live/tmp.$i; mv /live/tmp.$i /live/moved.$i; rm -f /live/moved.$((i-5));"
                + " ln -sfn moved.$i /live/newest; mkdir -p /live/d$((i % 7)); echo $i > /live/d$((i % 7))/f;"
                + " if [ $((i % 10)) = 0 ]; then rm -rf /live/d$(((i / 10) % 7)); fi; sleep 0.05; done";
        Files.writeString(dir.resolve("wr.yaml"), """
                module: wr
                components:
                  wr.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "%s"]
                    volumes: {big: /big, live: /live}
                    stop-timeout: 1s
                """.formatted(script));
        ok("catalogue", "add", dir.toString());
        ok("assign", "n1", "wr");
        ok("push", "--wait");
        PackagedMesh.await("wr runs on n1", Duration.ofSeconds(60), () -> quietly(() -> runs("n1", "wr.app")));
        Random random = new Random(25);
        byte[] mb = new byte[1024 * 1024];
        try (var out = Files.newOutputStream(wrVolume("n1", "big").resolve("big.bin"))) {
            for (int i = 0; i < LARGE_MB; i++) {
                random.nextBytes(mb);
                out.write(mb);
            }
        }
        PackagedMesh.await("wr has written a while", Duration.ofSeconds(30),
                () -> quietly(() -> Files.readAllLines(wrVolume("n1", "live").resolve("append.log")).size() >= 20));
        Files.writeString(hold, "fence");
        CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(() -> mesh("take", "n2", "wr"), PackagedMesh.OWN_THREAD);
        try {
            // Held after the last pass, before the fence, until wr has written ten more times: every loop deletes the
            // file it moved five loops before, so files the last pass copied are gone and the delta must delete them
            // (on a loaded machine the fence could otherwise follow the last pass before wr ran once more).
            awaitTake(take, "the take waits before its fence", Duration.ofSeconds(240), "wr", "n1", "n2", "fence");
            int written = Files.readAllLines(wrVolume("n1", "live").resolve("append.log")).size();
            PackagedMesh.await("wr writes ten more times after the last pass", Duration.ofSeconds(60), () -> quietly(() ->
                    Files.readAllLines(wrVolume("n1", "live").resolve("append.log")).size() >= written + 10));
            Files.writeString(hold, "start");
            awaitTake(take, "the take waits before its start", Duration.ofSeconds(240), "wr", "n1", "n2", "start");
            assertFalse(runs("n1", "wr.app"), "wr is fenced and stopped on n1");
            assertFalse(runs("n2", "wr.app"), "wr is not started on n2 yet");
            for (String volume : List.of("big", "live")) {
                assertEquals(tree(wrVolume("n1", volume)), tree(wrVolume("n2", volume)),
                        "volume " + volume + " is byte-identical on n2, entry by entry");
            }
        } finally {
            Files.deleteIfExists(hold);
        }
        PackagedMesh.Result r = take.get();
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("step pre-copy"), r.out());
        assertTrue(r.out().contains("pass 1 big (module running): ") && r.out().contains("pass 1 live (module running): "), r.out());
        java.util.regex.Matcher delta = java.util.regex.Pattern.compile("delta live \\(module stopped\\): [^,]+, (\\d+) files?(, (\\d+) deleted)?")
                .matcher(r.out());
        assertTrue(delta.find(), "says the delta of live:\n" + r.out());
        assertTrue(Integer.parseInt(delta.group(1)) > 0, "the delta sent what wr wrote after the last pass:\n" + r.out());
        assertTrue(delta.group(3) != null && Integer.parseInt(delta.group(3)) > 0,
                "the delta deleted what wr removed after the last pass:\n" + r.out());
        PackagedMesh.await("wr runs on n2", Duration.ofSeconds(60), () -> quietly(() -> runs("n2", "wr.app")));
        List<String> onN1 = Files.readAllLines(wrVolume("n1", "live").resolve("append.log"));
        PackagedMesh.await("wr appends on n2 to the log it wrote on n1", Duration.ofSeconds(30), () -> quietly(() ->
                Files.readAllLines(wrVolume("n2", "live").resolve("append.log")).size() > onN1.size() + 3));
        List<String> onN2 = Files.readAllLines(wrVolume("n2", "live").resolve("append.log"));
        assertEquals(onN1, onN2.subList(0, onN1.size()), "n2's log begins with every line n1's has");
        assertFalse(runs("n1", "wr.app"), "n1 runs nothing of wr");
    }

    Path wrVolume(String node, String name) {
        return Path.of(installed.engine(node).inspectVolumeCmd("wr_" + name).exec().getMountpoint());
    }

    /**
     * A switch whose commit outlives the step's deadline: the store's row of tk's placement is held locked by another
     * transaction for 45 s (the switch's write waits on it, as a commit waits on a paused synchronous standby), longer
     * than the switch's deadline (5 min; 30 s here through MESH_TAKE_TEST_DEADLINE, so the test waits seconds, not
     * minutes). The runner gives up on the switch (its failure recorded as the take's problem), and the switch commits
     * once the lock goes; the take then reads the placement, finds it moved, and goes forward: tk runs on the target
     * with its data whole, never rolled back over its own copy (before, that rollback deleted the target's copy and
     * started tk there on an empty volume).
     */
    @Test
    @Order(30)
    void aSwitchThatCommitsPastItsDeadlineIsFoundCommittedAndTheTakeEndsDone() throws Exception {
        String from = roster().get("tk.internal");
        String to = NAMES.stream().filter(n -> !n.equals(from)).findFirst().orElseThrow();
        Files.writeString(hold, "switch");
        CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(
                () -> installed.meshWithin(Duration.ofMinutes(5), "take", to, TK), PackagedMesh.OWN_THREAD);
        awaitTake(take, "the take waits before its switch", Duration.ofSeconds(180), TK, from, to, "switch");
        String seat = installed.seat().name;
        storeSql(seat, "select 1 from placements where module = 'tk' for update; select pg_sleep(45)", false);
        PackagedMesh.await("the placement's row is held locked", Duration.ofSeconds(30), () -> quietly(() -> storeSql(seat,
                "select count(*) from pg_stat_activity where query like '%for update; select pg_sleep(45)%'"
                        + " and state = 'active' and pid <> pg_backend_pid()", true).equals("1")));
        List<String> problems = new CopyOnWriteArrayList<>();
        AtomicBoolean watching = new AtomicBoolean(true);
        Thread watcher = Thread.ofVirtual().start(() -> {
            while (watching.get()) {
                quietly(() -> {
                    JsonNode t = take(TK);
                    if (t != null && !t.path("problem").asText("").isEmpty()) {
                        problems.add(t.path("step").asText() + ": " + t.path("problem").asText());
                    }
                    return true;
                });
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        long began = System.nanoTime();
        Files.delete(hold);
        PackagedMesh.Result done = take.get(5, TimeUnit.MINUTES);
        watching.set(false);
        watcher.join();
        System.out.printf("TakeIT: the switch held %.0f s by the lock ended: %s%n", (System.nanoTime() - began) / 1e9, problems);
        assertEquals(0, done.exit(), done.toString());
        assertTrue(done.out().contains("tk runs on " + to), done.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("switch: ") && p.contains("did not end within its deadline of 30 s")),
                "the switch outlived its deadline and was recorded as failed: " + problems);
        assertEquals(to, roster().get("tk.internal"));
        assertTrue(runs(to, APP), "tk runs on " + to);
        assertFalse(runs(from, APP), from + " runs nothing of tk");
        assertEquals(tree(volume(from, "bulk")), tree(volume(to, "bulk")), "the 200 MB volume is whole on " + to);
        Map<String, String> onSource = tree(volume(from, "files"));
        Map<String, String> onTarget = tree(volume(to, "files"));
        String markers = Files.readString(volume(from, "files").resolve("markers.log"));
        assertEquals(markers + "started\n", Files.readString(volume(to, "files").resolve("markers.log")),
                "tk started on " + to + " on the data it had on " + from);
        onSource.remove("markers.log");
        onTarget.remove("markers.log");
        assertEquals(onSource, onTarget, "the small files and links are whole on " + to);
    }

    /**
     * Runs {@code sql} with psql in the store's container on the seat ({@code mesh-store.postgres}); with {@code await},
     * waits for it (60 s at most) and answers what it printed, else leaves it running and answers "".
     */
    String storeSql(String seat, String sql, boolean await) throws Exception {
        DockerClient engine = installed.engine(seat);
        var exec = engine.execCreateCmd("mesh-store.postgres").withAttachStdout(true).withAttachStderr(true)
                .withCmd("psql", "-X", "-At", "-v", "ON_ERROR_STOP=1", "-U", "mesh", "-d", "mesh", "-c", sql).exec();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        var started = engine.execStartCmd(exec.getId()).exec(new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame f) {
                out.writeBytes(f.getPayload());
            }
        });
        if (!await) {
            return "";
        }
        started.awaitCompletion(60, TimeUnit.SECONDS);
        return out.toString().strip();
    }

    /** Kills the controller (SIGKILL); the seat's agent starts it again; it answers before this returns. */
    void restartController() throws Exception {
        installed.killController();
        installed.awaitController(Duration.ofSeconds(90));
    }

    // ---- helpers

    static void module(Path dir, String name, String binds) throws IOException {
        Files.writeString(dir.resolve(name + ".yaml"), """
                module: %s
                components:
                  %s.server:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "%s"]
                    binds: %s
                    volumes: {data: /data}
                    stop-timeout: 1s
                """.formatted(name, name, LOOP, binds));
    }

    /** A 200 MB file in bulk; 2,000 small files in 20 folders and three links in files, and tk's first marker. */
    static void fill(Path bulk, Path files) throws Exception {
        fill(bulk, files, LARGE_MB, SMALL_FILES);
    }

    /** As above with a {@code largeMb} MB file and {@code smallFiles} small files (a multiple of 20). */
    static void fill(Path bulk, Path files, int largeMb, int smallFiles) throws Exception {
        Random random = new Random(7);
        byte[] mb = new byte[1024 * 1024];
        try (var out = Files.newOutputStream(bulk.resolve("big.bin"))) {
            for (int i = 0; i < largeMb; i++) {
                random.nextBytes(mb);
                out.write(mb);
            }
        }
        for (int d = 0; d < 20; d++) {
            Path dir = Files.createDirectories(files.resolve(String.format("d%02d", d)));
            for (int f = 0; f < smallFiles / 20; f++) {
                Files.writeString(dir.resolve(String.format("f%04d.txt", f)), "file " + f + " in " + d + "\n".repeat(f % 5));
            }
        }
        Files.createSymbolicLink(files.resolve("d01/link"), Path.of("../d02/f0001.txt"));
        Files.createSymbolicLink(files.resolve("dangling"), Path.of("nowhere"));
        Files.createSymbolicLink(files.resolve("d02-link"), Path.of("d02"));
        Files.setAttribute(files.resolve("d04/f0001.txt"), "unix:uid", 1234, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(files.resolve("d05/f0002.txt"), "unix:mode", 0600);
    }

    /** Every entry under {@code root}: path to type, mode, owner, link target or sha256. */
    static Map<String, String> tree(Path root) throws Exception {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                String rel = root.relativize(p).toString();
                Map<String, Object> a = Files.readAttributes(p, "unix:mode,uid,gid", LinkOption.NOFOLLOW_LINKS);
                String what = Files.isSymbolicLink(p) ? "link " + Files.readSymbolicLink(p)
                        : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "dir" : "file " + sha256(p);
                entries.put(rel.isEmpty() ? "." : rel, what + " " + Integer.toOctalString((Integer) a.get("mode")) + " "
                        + a.get("uid") + ":" + a.get("gid"));
            }
        }
        return entries;
    }

    static String sha256(Path p) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        try (var in = Files.newInputStream(p)) {
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                d.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    /** The folder of tk's volume on the node's engine (the test runs as root, as the agents do). */
    Path volume(String node, String name) {
        return Path.of(installed.engine(node).inspectVolumeCmd(TK + "_" + name).exec().getMountpoint());
    }

    List<String> volumeNames(String node) {
        var volumes = installed.engine(node).listVolumesCmd().exec().getVolumes();
        return volumes == null ? List.of() : volumes.stream().map(v -> v.getName())
                .filter(n -> n.startsWith("tk_") || n.matches("(idle|bind)\\d_data")).sorted().toList();
    }

    boolean runs(String node, String component) {
        return installed.engine(node).listContainersCmd().withLabelFilter(Map.of("mesh.node", node)).exec().stream()
                .anyMatch(c -> c.getNames()[0].equals("/" + component) && "running".equals(c.getState()));
    }

    Map<String, String> containers() {
        Map<String, String> ids = new TreeMap<>();
        for (String node : NAMES) {
            installed.engine(node).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", node)).exec()
                    .forEach(c -> ids.put(node + "/" + c.getNames()[0].substring(1), c.getId()));
        }
        return ids;
    }

    /** Each mesh name and the node it resolves to, as {@code mesh roster} shows it. */
    Map<String, String> roster() throws IOException {
        Map<String, String> names = new TreeMap<>();
        json(ok("roster", "-o", "json")).forEach(e -> names.put(e.get("name").asText(), e.get("node").asText()));
        return names;
    }

    // ---- what the waits poll: the controller's API from this JVM, not a CLI JVM a poll (the verbs are asserted apart)

    /** The take of {@code module} under way, as the controller lists the takes {@code mesh status} prints; null if none. */
    JsonNode take(String module) throws IOException, InterruptedException {
        for (JsonNode t : installed.controller("/v1/mesh/takes")) {
            if (t.get("module").asText().equals(module)) {
                return t;
            }
        }
        return null;
    }

    /**
     * Waits until the take of {@code module} from {@code from} to {@code to} is under way at {@code step} (any step if null);
     * fails at once, with what {@code mesh take} printed, if the verb ended first (a take that failed says why).
     */
    void awaitTake(CompletableFuture<PackagedMesh.Result> verb, String what, Duration timeout, String module, String from,
            String to, String step) throws InterruptedException {
        long began = System.nanoTime();
        try {
            PackagedMesh.await(what, timeout, () -> {
                if (verb.isDone()) {
                    throw new AssertionError(what + ": mesh take ended first: " + verb.join());
                }
                return quietly(() -> takeAt(module, from, to, step));
            });
        } catch (AssertionError e) {
            String listed;
            try {
                listed = String.valueOf(take(module));
            } catch (Exception unread) {
                listed = "(unread: " + unread + ")";
            }
            throw new AssertionError(e.getMessage() + "; the controller lists the take as: " + listed, e);
        }
        System.out.printf("TakeIT: %s after %.1f s%n", what, (System.nanoTime() - began) / 1e9);
    }

    /** Whether a take of {@code module} from {@code from} to {@code to} is under way, at {@code step} unless it is null. */
    boolean takeAt(String module, String from, String to, String step) throws IOException, InterruptedException {
        JsonNode t = take(module);
        return t != null && from.equals(t.path("from").asText()) && to.equals(t.path("to").asText())
                && (step == null || step.equals(t.path("step").asText()));
    }

    /** The roster as the controller serves it ({@code mesh roster} prints the same): name → node. */
    Map<String, String> rosterNow() throws IOException, InterruptedException {
        Map<String, String> names = new TreeMap<>();
        installed.controller("/v1/mesh/roster").forEach(e -> names.put(e.get("name").asText(), e.get("node").asText()));
        return names;
    }

    Path temp(String prefix) throws IOException {
        Path p = Files.createTempDirectory(prefix);
        temps.add(p);
        return p;
    }

    PackagedMesh.Result mesh(String... args) {
        return installed.mesh(args);
    }

    String ok(String... args) {
        PackagedMesh.Result r = mesh(args);
        assertEquals(0, r.exit(), () -> "mesh " + String.join(" ", args) + ": " + r);
        return r.out();
    }
}
