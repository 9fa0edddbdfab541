package mesh.e2e;

import static mesh.e2e.MeshE2EIT.json;
import static mesh.e2e.MeshE2EIT.quietly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * TakeProcessIT takes a module whose component is a process ({@code bundle:}) between simulated nodes of a
 * mesh raised by {@code mesh install} and {@code --join} ({@link InstalledMesh}: HTTPS, the servers as
 * installed), through the CLI and the mesh's own artifact store (module {@code mesh-registry} on the seat
 * n1, where {@code mesh bundle push} puts the bundles). Module pk's process writes
 * a marker into its volume once and a line per start, and serves them. Taken from n1 to n2: the preflight
 * has n2 fetch the bundle; the process on n1 is stopped and stays stopped while fenced (the agent's loop and
 * supervisor do not start it again); its volume is carried and verified; it runs on n2 on the copied data.
 * Every 200 ms throughout, the copies of the process are counted from /proc in each node's network
 * namespace: never more than one. While the take waits before its verify, {@code mesh status -o json}
 * shows it on both nodes with its step. A module whose pinned bundle the artifact store no longer holds
 * is refused by the preflight, naming the bundle, and keeps running on its node untouched. With a route on
 * n3's edge and a binder on n3, a take tells n3's edge the route's new upstream before the binder is replaced.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class TakeProcessIT {

    static final List<String> NAMES = List.of("n1", "n2", "n3");
    static final String PK = "pk";
    static final String WEB = "pk.web";
    static final String GONE = "gone.web";
    static final int PORT = 18093;
    static final int GONE_PORT = 18094;

    /** The process: its marker (once) and a line per start in its volume; a scratch file in its working folder. */
    static final String SCRIPT = String.join("\n",
            "#!/bin/sh",
            "mkdir -p www",
            "[ -f \"$MESH_VOLUME_DATA/marker\" ] || echo \"marker-$$-$(date +%s%N)\" > \"$MESH_VOLUME_DATA/marker\"",
            "echo \"started at $MESH_ADDRESS\" >> \"$MESH_VOLUME_DATA/starts.log\"",
            "cp \"$MESH_VOLUME_DATA/marker\" www/marker.txt",
            "cp \"$MESH_VOLUME_DATA/starts.log\" www/starts.txt",
            "echo ok > www/health.txt",
            "exec /bin/busybox httpd -f -p \"$MESH_ADDRESS:$PORT\" -h www",
            "");

    final Map<String, Path> stateDirs = new HashMap<>();
    final List<Path> temps = new ArrayList<>();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    InstalledMesh installed;
    Path hold;
    Path dir;
    String goneBundle;

    @BeforeAll
    void raiseTheMesh() throws Exception {
        endShims();
        installed = InstalledMesh.raise(3);
        hold = temp("mesh-takeproc-hold").resolve("hold");
        installed.controllerEnv(Map.of("MESH_TAKE_TEST_HOLD", hold.toString()));
        installed.restartAgents(NAMES, Map.of("MESH_HOST_INTERVAL", "1s"));
        for (String name : NAMES) {
            stateDirs.put(name, installed.node(name).state().resolve("host"));   // the agent's MESH_HOST_STATE_DIR as install sets it
        }
        dir = temp("mesh-takeproc-catalogue");
        // the artifact store is the installed mesh's own, module mesh-registry on the seat (n1)
        // mesh bundle push finds the artifact store through the controller's roster
        String pk = bundle("it/pk:1");
        assertTrue(pk.matches("it/pk@sha256:[0-9a-f]{64}"), pk);
        goneBundle = bundle("it/gone:1");
        Files.writeString(dir.resolve("pk.yaml"), process(PK, WEB, "it/pk:1", PORT));
        Files.writeString(dir.resolve("gone.yaml"), process("gone", GONE, goneBundle, GONE_PORT));
        ok("catalogue", "add", dir.resolve("pk.yaml").toString());
        ok("catalogue", "add", dir.resolve("gone.yaml").toString());
        ok("assign", "n1", PK);
        ok("assign", "n1", "gone");
        ok("push", "--wait");
        PackagedMesh.await("pk and gone serve on n1", Duration.ofSeconds(90),
                () -> get("n1", PORT, "/health.txt") != null && get("n1", GONE_PORT, "/health.txt") != null);
    }

    @AfterAll
    void tearDown() throws Exception {
        quietly(() -> {
            mesh("unassign", "n1", PK);
            mesh("unassign", "n2", PK);
            mesh("unassign", "n1", "gone");
            mesh("unassign", "n3", "pkbind");
            return mesh("push", "--yes").exit() == 0;
        });
        endShims();
        if (installed != null) {
            installed.close();
        }
        for (Path p : temps) {
            PackagedMesh.deleteTree(p);
        }
    }

    /**
     * A module whose pinned bundle the artifact store lost is refused by the preflight, dry run or not, naming
     * the bundle: nothing is fenced, its process keeps running on n1 (same pid, same start time), n2 runs none.
     */
    @Test
    @Order(1)
    void aTakeWhoseBundleTheTargetCannotGetIsRefusedByNameAndFencesNothing() throws Exception {
        List<Long> before = shims(GONE, "n1");
        assertEquals(1, before.size(), "gone runs once on n1: " + before);
        long started = startTime(before.get(0));
        forgetInTheRegistry(goneBundle);

        PackagedMesh.Result dry = mesh("take", "--dry-run", "n2", "gone");
        assertEquals(1, dry.exit(), dry.toString());
        assertTrue(dry.err().contains("node n2 lacks bundle " + goneBundle + " of module gone"), dry.toString());

        PackagedMesh.Result r = mesh("take", "n2", "gone");
        assertEquals(1, r.exit(), r.toString());
        String said = r.out() + r.err();
        assertTrue(said.contains("node n2 lacks bundle " + goneBundle + " of module gone ("), said);
        assertTrue(said.contains("nothing was fenced, gone runs on n1 as it did"), said);
        assertFalse(said.contains("step fence"), "no step after the preflight was carried out:\n" + said);

        Thread.sleep(2500);   // two passes of n1's agent: a fence would have stopped it
        assertEquals(before, shims(GONE, "n1"), "gone was never stopped on n1");
        assertEquals(started, startTime(before.get(0)), "same pid, same start time");
        assertEquals(List.of(), shims(GONE, "n2"), "n2 runs no copy of gone");
        assertNotNull(get("n1", GONE_PORT, "/health.txt"), "gone still serves on n1");
        JsonNode n1 = nodeStatus("n1");
        assertEquals(0, n1.path("takes").size(), n1.toString());
        assertEquals("running", component(n1, GONE).path("state").asText(), "not fenced: " + n1);
        assertEquals("n1", roster().get("gone.internal"));
    }

    /**
     * pk moves from n1 to n2 with its volume; its process stops on n1 and is not started there again while
     * fenced; it runs on n2 on the copied data; one copy at most at every moment; the status shows the take.
     */
    @Test
    @Order(2)
    void aProcessIsFencedCarriedAndStartedOnTheTargetAndNeverRunsTwice() throws Exception {
        String marker = get("n1", PORT, "/marker.txt");
        assertNotNull(marker, "pk serves its marker on n1");
        assertEquals(1, shims(WEB, "n1").size());
        Path n1Data = stateDirs.get("n1").resolve("volumes").resolve("pk_data");
        assertEquals(marker, Files.readString(n1Data.resolve("marker")));

        List<String> counts = new CopyOnWriteArrayList<>();
        List<String> twice = new CopyOnWriteArrayList<>();
        AtomicBoolean watching = new AtomicBoolean(true);
        Thread watcher = new Thread(() -> {
            String last = "";
            while (watching.get()) {
                try {
                    int on1 = shims(WEB, "n1").size();
                    int on2 = shims(WEB, "n2").size();
                    String now = on1 + "," + on2;
                    if (on1 + on2 > 1) {
                        twice.add(now);
                    }
                    if (!now.equals(last)) {
                        counts.add(now);
                        last = now;
                    }
                    Thread.sleep(200);
                } catch (IOException | InterruptedException e) {
                    return;
                }
            }
        });
        watcher.start();
        try {
            Files.writeString(hold, "verify");
            CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(() -> mesh("take", "n2", PK), PackagedMesh.OWN_THREAD);
            PackagedMesh.await("the take waits before its verify", Duration.ofSeconds(120),
                    () -> quietly(() -> "verify".equals(nodeStatus("n2").path("takes").path(0).path("step").asText())));

            // mesh status -o json: the take on both nodes, each with its part
            JsonNode source = nodeStatus("n1").path("takes").get(0);
            JsonNode target = nodeStatus("n2").path("takes").get(0);
            assertEquals(List.of(PK, "source", "n1", "n2", "verify"), List.of(source.path("module").asText(),
                    source.path("role").asText(), source.path("from").asText(), source.path("to").asText(), source.path("step").asText()));
            assertEquals("target", target.path("role").asText(), target.toString());
            assertEquals(source.path("epoch").asLong(), target.path("epoch").asLong());
            assertEquals(0, nodeStatus("n3").path("takes").size(), "n3 has no part in it");

            // fenced: stopped on n1, and its agent's loop and supervisor do not start it again
            assertEquals(List.of(), shims(WEB, "n1"));
            Thread.sleep(3500);   // three passes of n1's agent, past the supervisor's first backoff
            assertEquals(List.of(), shims(WEB, "n1"), "pk stays stopped on n1 while fenced");
            assertEquals("fenced", component(nodeStatus("n1"), WEB).path("state").asText());
            assertNull(get("n1", PORT, "/health.txt"), "nothing serves pk on n1");

            Files.delete(hold);
            PackagedMesh.Result r = take.get();
            assertEquals(0, r.exit(), r.toString());
            for (String step : List.of("step preflight", "step fence", "step copy", "step verify", "step start", "step switch",
                "step push", "pk runs on n2")) {
                assertTrue(r.out().contains(step), "says " + step + ":\n" + r);
            }
            PackagedMesh.await("pk serves on n2", Duration.ofSeconds(30), () -> get("n2", PORT, "/health.txt") != null);
            Thread.sleep(2500);   // two more passes of each agent after the push
        } finally {
            watching.set(false);
            watcher.join();
            quietly(() -> Files.deleteIfExists(hold));
        }
        assertEquals(List.of(), twice, "never two copies at once; counts (n1,n2) seen: " + counts);
        assertEquals(List.of("1,0", "0,0", "0,1"), counts, "stopped on n1, then started on n2, never again on n1");

        assertEquals(marker, get("n2", PORT, "/marker.txt"), "pk runs on n2 on the data it wrote on n1");
        Path n2Data = stateDirs.get("n2").resolve("volumes").resolve("pk_data");
        assertEquals(List.of("started at " + address("n1"), "started at " + address("n2")), Files.readAllLines(n2Data.resolve("starts.log")),
                "its volume came with it, and it started once on n2");
        assertEquals(List.of("started at " + address("n1")), Files.readAllLines(n1Data.resolve("starts.log")),
                "n1 keeps its old copy as it was when fenced");
        assertEquals(marker, Files.readString(n1Data.resolve("marker")));
        assertEquals("n2", roster().get("pk.internal"));
        assertEquals(0, nodeStatus("n2").path("takes").size(), "the take is over");
        assertEquals("running", component(nodeStatus("n2"), WEB).path("state").asText());
    }

    /**
     * The edge's ordering at the switch: pk gets a route served by n3's edge ({@code www.n3.test}), and n3 also
     * runs a binder of {@code pk.internal}. Taken from n2 to n1, n3 is first sent a declaration whose only
     * change is the route's new upstream, and only in a later one is its binder replaced: the edge never
     * waits for the binder to stop and start before it proxies to the copy that runs.
     */
    @Test
    @Order(3)
    void theEdgeIsToldTheRoutesNewUpstreamBeforeTheBindersAreReplaced() throws Exception {
        try (var in = getClass().getResourceAsStream("/mesh/edge/route-proxy.yaml")) {
            String edge = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .replaceFirst("image: caddy:2@sha256:[0-9a-f]+", "image: mesh-test/caddy:2.11")
                    .replace("MESH_EDGE_TLS: acme", "MESH_EDGE_TLS: internal").replace("stop-timeout: 10s", "stop-timeout: 3s");
            Files.writeString(dir.resolve("route-proxy.yaml"), edge);
        }
        Files.writeString(dir.resolve("pk.yaml"), process(PK, WEB, "it/pk:1", PORT)
                + "routes:\n  www: {component: " + WEB + ", port: " + PORT + ", domain: n3.test}\n");
        Files.writeString(dir.resolve("pkbind.yaml"), """
                module: pkbind
                components:
                  pkbind.server:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "trap 'exit 0' TERM; while true; do sleep 1; done"]
                    binds: [pk.internal]
                    stop-timeout: 1s
                """);
        ok("node", "public-domain", "n3", "n3.test");
        for (String m : List.of("route-proxy", "pk", "pkbind")) {
            ok("catalogue", "add", dir.resolve(m + ".yaml").toString());
        }
        ok("assign", "n3", "pkbind");
        ok("push", "--wait");
        String n1 = address("n1") + ":" + PORT;
        String n2 = address("n2") + ":" + PORT;
        long before = generations("n3").lastKey();
        assertEquals(n2, upstream(generations("n3").get(before)), "www.n3.test proxies to n2, where pk runs");
        assertEquals(address("n2"), binder(generations("n3").get(before)));

        String out = ok("take", "n1", PK);
        assertTrue(out.contains("pk runs on n1"), out);
        java.util.NavigableMap<Long, mesh.model.Declaration> after = generations("n3").tailMap(before, false);
        Long told = after.entrySet().stream().filter(e -> n1.equals(upstream(e.getValue()))).map(Map.Entry::getKey)
                .findFirst().orElseThrow(() -> new AssertionError("n3 was never told www.n3.test's upstream n1: " + after));
        mesh.model.Declaration first = after.get(told);
        mesh.model.Declaration previous = generations("n3").floorEntry(told - 1).getValue();
        assertEquals(previous.components(), first.components(), "the declaration that moves the route changes nothing else");
        assertEquals(address("n2"), binder(first), "the binder is not replaced yet when the edge is told");
        assertEquals(address("n1"), binder(generations("n3").lastEntry().getValue()), "the push after it replaces the binder");
        assertTrue(generations("n3").lastKey() > told, "in a later generation");
        assertEquals("n3", roster().get("www.n3.test"));
        PackagedMesh.await("pk serves on n1", Duration.ofSeconds(30), () -> get("n1", PORT, "/health.txt") != null);
    }

    // ---- helpers

    /** Every declaration n's agent accepted, by generation (its records, {@code <state-dir>/declarations/}). */
    java.util.NavigableMap<Long, mesh.model.Declaration> generations(String node) throws IOException {
        java.util.NavigableMap<Long, mesh.model.Declaration> all = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.list(stateDirs.get(node).resolve("declarations"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("\\d{12}\\.json")).toList()) {
                mesh.host.DeclarationRecord r = mesh.model.DeclarationJson.MAPPER.readValue(f.toFile(), mesh.host.DeclarationRecord.class);
                all.put(r.generation(), r.declaration());
            }
        }
        return all;
    }

    /** Where the declaration's edge proxies www.n3.test, or null. */
    static String upstream(mesh.model.Declaration d) {
        return d.edge() == null ? null : d.edge().routes().stream().filter(r -> r.name().equals("www.n3.test"))
                .map(mesh.model.EdgeTable.Route::upstream).findFirst().orElse(null);
    }

    /** The address pkbind.server resolves pk.internal to in the declaration. */
    static String binder(mesh.model.Declaration d) {
        return d.components().stream().filter(c -> c.name().equals("pkbind.server")).map(c -> c.hosts().get("pk.internal"))
                .findFirst().orElse(null);
    }

    static String process(String module, String component, String bundle, int port) {
        return """
                module: %s
                components:
                  %s:
                    bundle: %s
                    env: {PORT: "%d"}
                    volumes: {data: /data}
                    ports: [%d]
                    health: {http: /health.txt, port: %d}
                    stop-timeout: 2s
                """.formatted(module, component, bundle, port, port, port);
    }

    /** {@code mesh bundle push} of the script under {@code name}; returns NAME@sha256:…. */
    String bundle(String name) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("bundle-" + name.replace('/', '-').replace(':', '-')));
        Files.writeString(folder.resolve("run"), SCRIPT);
        Files.setPosixFilePermissions(folder.resolve("run"), PosixFilePermissions.fromString("rwxr-xr-x"));
        return ok("bundle", "push", folder.toString(), name, "--entrypoint", "run").strip();
    }

    /** Deletes the bundle's repository and its manifest's blob from the artifact store's files, so nobody can fetch it. */
    void forgetInTheRegistry(String bundle) throws Exception {
        String hex = bundle.substring(bundle.indexOf("@sha256:") + 8);
        String root = "/var/lib/registry/docker/registry/v2/";
        DockerClient seat = installed.engine("n1");   // the seat runs the artifact store
        String exec = seat.execCreateCmd("mesh-registry.registry").withCmd("rm", "-rf",
                root + "repositories/" + bundle.substring(0, bundle.indexOf('@')), root + "blobs/sha256/" + hex.substring(0, 2) + "/" + hex)
                .withAttachStdout(true).withAttachStderr(true).exec().getId();
        seat.execStartCmd(exec).exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<>()).awaitCompletion();
        PackagedMesh.await("the rm in the artifact store ends", Duration.ofSeconds(30),
                () -> !Boolean.TRUE.equals(seat.inspectExecCmd(exec).exec().isRunning()));
        assertEquals(0L, seat.inspectExecCmd(exec).exec().getExitCodeLong());
    }

    String address(String node) {
        return installed.testbed(node).address();
    }

    /** GET http://NODE:PORT/PATH: the body, or null when nothing answers. */
    String get(String node, int port, String path) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + address(node) + ":" + port + path))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The node's element of {@code mesh status -o json}. */
    JsonNode nodeStatus(String node) throws IOException {
        for (JsonNode n : json(mesh("status", "-o", "json").out())) {
            if (n.path("node").path("name").asText().equals(node)) {
                return n;
            }
        }
        throw new AssertionError("no node " + node + " in mesh status");
    }

    static JsonNode component(JsonNode nodeStatus, String name) {
        for (JsonNode c : nodeStatus.path("agent").path("components")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no component " + name + " in " + nodeStatus);
    }

    Map<String, String> roster() throws IOException {
        Map<String, String> names = new java.util.TreeMap<>();
        json(ok("roster", "-o", "json")).forEach(e -> names.put(e.get("name").asText(), e.get("node").asText()));
        return names;
    }

    /**
     * The pids of the component's shims in the node's network namespace, from /proc: the supervisor's "one
     * copy" (ProcessCrashIT counts the same way); a shim's argv is {@code sh -c SHIM mesh-shim COMPONENT ...}.
     */
    List<Long> shims(String component, String node) throws IOException {
        String netns = "net:[" + Files.getAttribute(Path.of("/run/netns", installed.testbed(node).name()), "unix:ino") + "]";
        List<Long> pids = new ArrayList<>();
        for (long pid : allShims(component)) {
            try {
                if (Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns/net")).toString().equals(netns)) {
                    pids.add(pid);
                }
            } catch (IOException gone) {
                // ended meanwhile
            }
        }
        return pids;
    }

    /**
     * The shims of {@code component} on this machine: each {@code sh … mesh-shim COMPONENT} process, except one whose
     * parent is such a process. The shim forks to run its command ({@code "$@" &}) and, as it ends, {@code mv} for its
     * exit file: between that fork and the exec, the child still shows the shim's command line, and is no second copy.
     */
    static List<Long> allShims(String component) throws IOException {
        Map<Long, Long> parents = new HashMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    List<String> argv = List.of(Files.readString(p.resolve("cmdline")).split("\0"));
                    if (argv.size() > 5 && argv.get(0).equals("sh") && argv.get(3).equals("mesh-shim")
                            && argv.get(4).equals(component)) {
                        String stat = Files.readString(p.resolve("stat"));
                        long ppid = Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
                        parents.put(Long.parseLong(p.getFileName().toString()), ppid);
                    }
                } catch (IOException gone) {
                    // ended meanwhile
                }
            }
        }
        return parents.keySet().stream().filter(pid -> !parents.containsKey(parents.get(pid))).sorted().toList();
    }

    /** Field 22 of /proc/PID/stat: with the pid, a process's identity. */
    static long startTime(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19]);
    }

    /** Ends, by pid, the process groups of this test's components' shims that are left (a crashed run's, or after the agents). */
    static void endShims() throws IOException {
        for (String component : List.of(WEB, GONE)) {
            for (long pid : allShims(component)) {
                ProcessHandle.of(pid).ifPresent(h -> {
                    h.descendants().forEach(ProcessHandle::destroyForcibly);
                    h.destroyForcibly();
                });
            }
        }
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
