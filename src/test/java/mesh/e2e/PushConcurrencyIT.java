package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import mesh.trust.Pem;
import mesh.trust.TlsContexts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * PushConcurrencyIT: a push that waits on a slow agent holds no store transaction and no lock that
 * other verbs need. A mesh raised by {@code mesh install} ({@link InstalledMesh}: its controller, its
 * store, the seat's agent); the agent is frozen with SIGSTOP (its own process, not the controller it
 * supervises) and thawed with SIGCONT 10 s later, so it answers the push after 10 s. Meanwhile
 * {@code mesh node list} and {@code mesh assign} answer in under a second, and a second
 * {@code mesh push} is refused at once and sends nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InstalledMeshTest
class PushConcurrencyIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String NODE = "n1";
    /** The push lock's key as pg_locks shows it: objid, the key's low 32 bits ("mesh"). */
    static final long LOCK_OBJID = 0x6d657368L;
    static final Duration FROZEN = Duration.ofSeconds(10);
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    InstalledMesh mesh;
    java.net.http.HttpClient http;
    DataSource store;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(1);
        http = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .sslContext(TlsContexts.trusting(Pem.certificate(Path.of(mesh.cliEnv().get("MESH_CA"))))).build();
        store = InstalledTls.store(mesh);
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            signal("CONT");
            mesh.close();
        }
    }

    @Test
    void aPushWaitingOnAFrozenAgentBlocksNoOtherVerbAndASecondPushIsRefused() throws Exception {
        Map<String, String> cli = mesh.cliEnv();
        Path catalogue = Files.createTempDirectory("mesh-push-catalogue");
        try {
            Files.writeString(catalogue.resolve("web.yaml"), """
                    module: web
                    components:
                      web.server:
                        image: mesh-test/busybox:1
                    """);
            // the seat is up to date after install: a module assigned, so that the first push has something to send
            Files.writeString(catalogue.resolve("first.yaml"), """
                    module: first
                    components:
                      first.server:
                        image: mesh-test/busybox:1
                        args: [sh, -c, "%s"]
                        stop-timeout: 1s
                    """.formatted(LOOP));
            ok(cli, "catalogue", "add", catalogue.toString());
            ok(cli, "assign", NODE, "first");
            long before = JSON.readTree(ok(cli, "node", "list", "-o", "json").out()).get(0).get("generation").asLong();
            mesh.agent(NODE, "/v1/status");   // the agent answers

            api("GET", "/v1/mesh/nodes");   // the test's own HTTP client warmed up, so only the answer is timed below
            // the pushes' connection to the agent opened (a dry run asks the agent for its plan): over HTTPS a new
            // connection needs the agent's own TLS handshake, which a frozen agent never does (the controller gives up
            // after 3 s); the case here is an agent slow to answer the push, as over plain HTTP the kernel's accept made it
            ok(cli, "push", "--dry-run");
            signal("STOP");
            long frozenAt = System.nanoTime();
            Process first;
            File firstOut = File.createTempFile("mesh-push", ".out");
            try {
                first = start(cli, firstOut, "push", "-o", "json");
                PackagedMesh.await("the first push holds the push lock", Duration.ofSeconds(30), this::pushLockHeld);

                assertTrue(api("GET", "/v1/mesh/nodes") < 1000);
                assertTrue(api("PUT", "/v1/mesh/nodes/" + NODE + "/modules/web") < 1000);
                PackagedMesh.Result list = timed(cli, first, "node", "list");
                PackagedMesh.Result assign = timed(cli, first, "assign", NODE, "web");
                long second = System.nanoTime();
                PackagedMesh.Result refused = PackagedMesh.run(cli, "push");
                Duration secondTook = Duration.ofNanos(System.nanoTime() - second);
                assertTrue(first.isAlive(), "the first push still waits on the frozen agent");
                assertEquals(1, refused.exit(), refused.toString());
                assertEquals("mesh: another push is in progress; try again when it ends\n", refused.err(), refused.toString());
                assertEquals("", refused.out(), refused.toString());
                assertTrue(secondTook.toMillis() < 5000, "refused at once, not queued: " + secondTook.toMillis() + " ms");
                assertEquals(0, list.exit(), list.toString());
                assertEquals(0, assign.exit(), assign.toString());
            } finally {
                long left = FROZEN.toNanos() - (System.nanoTime() - frozenAt);
                if (left > 0) {
                    TimeUnit.NANOSECONDS.sleep(left);
                }
                signal("CONT");
            }
            assertTrue(first.waitFor(60, TimeUnit.SECONDS), "the first push ends once the agent answers");
            String report = Files.readString(firstOut.toPath());
            Files.deleteIfExists(firstOut.toPath());
            assertEquals(0, first.exitValue(), report);
            JsonNode node = JSON.readTree(report).get("nodes").get(0);
            assertEquals("sent", node.get("outcome").asText(), report);
            assertEquals(before + 1, node.get("generation").asLong(), report);

            // the refused push sent nothing: the store and the agent hold the first push's generation alone
            JsonNode listed = JSON.readTree(ok(cli, "node", "list", "-o", "json").out()).get(0);
            assertEquals(before + 1, listed.get("generation").asLong(), listed.toString());
            assertEquals(before + 1, listed.get("ackedGeneration").asLong(), listed.toString());
            // the first push's container may still be starting (status then exits 1, "needs attention"): wait for it
            PackagedMesh.await("n1 runs the first push's generation, converged", Duration.ofSeconds(60),
                    () -> PackagedMesh.run(cli, "status").exit() == 0);
            JsonNode status = JSON.readTree(ok(cli, "status", "-o", "json").out()).get(0);
            assertEquals(before + 1, status.get("agent").get("generation").asLong(), status.toString());
            // and the lock was released: the next push (a dry run: the assignment above) goes ahead
            JsonNode dryRun = JSON.readTree(ok(cli, "push", "--dry-run", "-o", "json").out()).get("nodes").get(0);
            assertEquals("would-send", dryRun.get("outcome").asText(), dryRun.toString());
            assertEquals(before + 2, dryRun.get("generation").asLong(), dryRun.toString());
        } finally {
            PackagedMesh.deleteTree(catalogue);
        }
    }

    /**
     * Runs a verb while the push waits: it must end while the push still waits, i.e. not queue
     * behind it. Its time is printed but not held to a second: most of it is the CLI's JVM start,
     * which on a loaded two-core CI machine alone takes more; {@link #api} holds the controller's
     * own answer to a second.
     */
    static PackagedMesh.Result timed(Map<String, String> cli, Process push, String... args) {
        long start = System.nanoTime();
        PackagedMesh.Result r = PackagedMesh.run(cli, args);
        long ms = Duration.ofNanos(System.nanoTime() - start).toMillis();
        System.out.printf("PushConcurrencyIT: mesh %s took %d ms while a push waited%n", String.join(" ", args), ms);
        assertTrue(push.isAlive(), "mesh " + String.join(" ", args) + " ended only after the push (" + ms + " ms): " + r);
        return r;
    }

    /** Asks the controller's API straight (no CLI start), over HTTPS; returns how long it took to answer 200, in ms. */
    long api(String method, String path) throws IOException, InterruptedException {
        long start = System.nanoTime();
        java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(mesh.cliEnv().get("MESH_CONTROLLER") + path))
                .header("Authorization", "Bearer " + mesh.cliEnv().get("MESH_TOKEN"))
                .method(method, java.net.http.HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(30)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        long ms = Duration.ofNanos(System.nanoTime() - start).toMillis();
        System.out.printf("PushConcurrencyIT: %s %s took %d ms%n", method, path, ms);
        assertEquals(200, r.statusCode(), method + " " + path + ": " + r.body());
        return ms;
    }

    static PackagedMesh.Result ok(Map<String, String> cli, String... args) {
        PackagedMesh.Result r = PackagedMesh.run(cli, args);
        assertEquals(0, r.exit(), r.toString());
        return r;
    }

    /** Starts a verb in the background, stdout (and stderr) to {@code out}. */
    static Process start(Map<String, String> cli, File out, String... args) throws IOException {
        ProcessBuilder b = new ProcessBuilder(PackagedMesh.command(PackagedMesh.app(), null, List.of(args)))
                .redirectOutput(out).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(cli);
        return b.start();
    }

    /** Whether a session of the seat's store holds the push lock (PushLock's advisory key). */
    boolean pushLockHeld() {
        try (Connection c = store.getConnection();
             PreparedStatement s = c.prepareStatement("select count(*) from pg_locks where locktype = 'advisory'"
                     + " and granted and objid::bigint = ? and database = (select oid from pg_database where datname = current_database())")) {
            s.setLong(1, LOCK_OBJID);
            try (ResultSet r = s.executeQuery()) {
                return r.next() && r.getLong(1) == 1;
            }
        } catch (java.sql.SQLException e) {
            throw new AssertionError("cannot read pg_locks: " + e.getMessage(), e);
        }
    }

    /**
     * Sends SIGSTOP or SIGCONT to the seat's agent process and what it started, except the controller it
     * supervises and that one's own processes: the push must wait on the agent, not on a frozen controller.
     */
    void signal(String signal) throws IOException, InterruptedException {
        long agent = mesh.agentPid(NODE);
        Set<Long> controller = ProcessHandle.of(mesh.controllerPid()).stream()
                .flatMap(h -> java.util.stream.Stream.concat(java.util.stream.Stream.of(h), h.descendants()))
                .map(ProcessHandle::pid).collect(Collectors.toSet());
        List<String> pids = new ArrayList<>(List.of(Long.toString(agent)));
        ProcessHandle.of(agent).ifPresent(h -> h.descendants().filter(d -> !controller.contains(d.pid()))
                .forEach(d -> pids.add(Long.toString(d.pid()))));
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        command.addAll(pids);
        Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " " + pids);
    }
}
