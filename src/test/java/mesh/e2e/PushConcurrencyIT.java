package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.Test;

/**
 * PushConcurrencyIT: a push that waits on a slow agent holds no store transaction and no lock that
 * other verbs need. A real controller and a real agent on a test-bed node; the agent is frozen with
 * SIGSTOP and thawed with SIGCONT 10 s later, so it answers the push after 10 s. Meanwhile
 * {@code mesh node list} and {@code mesh assign} answer in under a second, and a second
 * {@code mesh push} is refused at once and sends nothing.
 */
class PushConcurrencyIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String NODE = "solo";
    /** The push lock's key as pg_locks shows it: objid, the key's low 32 bits ("mesh"). */
    static final long LOCK_OBJID = 0x6d657368L;
    static final Duration FROZEN = Duration.ofSeconds(10);
    static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newHttpClient();

    @Test
    void aPushWaitingOnAFrozenAgentBlocksNoOtherVerbAndASecondPushIsRefused() throws Exception {
        TestbedNodes.Node bed = TestbedNodes.up(1).get(0);
        String database = "mesh_push_" + UUID.randomUUID().toString().substring(0, 8);
        String token = "op-" + UUID.randomUUID();
        Path state = Files.createTempDirectory("mesh-push-agent");
        Path catalogue = Files.createTempDirectory("mesh-push-catalogue");
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
        int port = PackagedMesh.freePort();
        Map<String, String> cli = Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + port, "MESH_TOKEN", token);
        MeshProcess agent = null;
        try (MeshProcess controller = MeshProcess.serve("push-concurrency-controller", null, Map.of(
                "MESH_STORE_URL", "jdbc:postgresql://127.0.0.1:5432/" + database,
                "MESH_STORE_USER", "mesh", "MESH_STORE_PASSWORD", "mesh",
                "MESH_CONTROLLER_TOKEN", token, "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port), "controller", "serve")) {
            PackagedMesh.await("the controller answers", Duration.ofSeconds(60),
                    () -> PackagedMesh.run(cli, "node", "list").exit() == 0);
            PackagedMesh.Result added = ok(cli, "node", "add", NODE, "--address", bed.address(), "-o", "json");
            Files.writeString(catalogue.resolve("web.yaml"), """
                    module: web
                    components:
                      web.server:
                        image: mesh-test/busybox:1
                    """);
            ok(cli, "catalogue", "add", catalogue.resolve("web.yaml").toString());
            agent = MeshProcess.serve("push-concurrency-agent", bed.name(), Map.of(
                    "MESH_HOST_NODE", NODE, "MESH_HOST_LISTEN", bed.address() + ":7701", "MESH_HOST_ENGINE", bed.dockerHost(),
                    "MESH_HOST_STATE_DIR", state.toString(), "MESH_HOST_INTERVAL", "2s"), "host", "serve");
            PackagedMesh.await("the agent answers", Duration.ofSeconds(60),
                    () -> PackagedMesh.run(cli, "status").out().contains("never pushed"));

            api(port, token, "GET", "/v1/mesh/nodes");   // the test's own HTTP client warmed up, so only the answer is timed below
            signal(agent, "STOP");
            long frozenAt = System.nanoTime();
            Process first;
            File firstOut = File.createTempFile("mesh-push", ".out");
            try {
                first = start(cli, firstOut, "push", "-o", "json");
                PackagedMesh.await("the first push holds the push lock", Duration.ofSeconds(30),
                        () -> pushLockHeld(database));

                assertTrue(api(port, token, "GET", "/v1/mesh/nodes") < 1000);
                assertTrue(api(port, token, "PUT", "/v1/mesh/nodes/" + NODE + "/modules/web") < 1000);
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
                signal(agent, "CONT");
            }
            assertTrue(first.waitFor(60, TimeUnit.SECONDS), "the first push ends once the agent answers");
            String report = Files.readString(firstOut.toPath());
            Files.deleteIfExists(firstOut.toPath());
            assertEquals(0, first.exitValue(), report);
            JsonNode node = JSON.readTree(report).get("nodes").get(0);
            assertEquals("sent", node.get("outcome").asText(), report);
            assertEquals(1, node.get("generation").asLong(), report);

            // the refused push sent nothing: the store and the agent hold the first push's generation alone
            JsonNode listed = JSON.readTree(ok(cli, "node", "list", "-o", "json").out()).get(0);
            assertEquals(1, listed.get("generation").asLong(), listed.toString());
            assertEquals(1, listed.get("ackedGeneration").asLong(), listed.toString());
            JsonNode status = JSON.readTree(ok(cli, "status", "-o", "json").out()).get(0);
            assertEquals(1, status.get("agent").get("generation").asLong(), status.toString());
            // and the lock was released: the next push (a dry run: the assignment above) goes ahead
            JsonNode dryRun = JSON.readTree(ok(cli, "push", "--dry-run", "-o", "json").out()).get("nodes").get(0);
            assertEquals("would-send", dryRun.get("outcome").asText(), dryRun.toString());
            assertEquals(2, dryRun.get("generation").asLong(), dryRun.toString());
        } finally {
            if (agent != null) {
                signal(agent, "CONT");
                agent.close();
            }
            try (DockerClient docker = TestbedNodes.client(bed)) {
                docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", NODE)).exec()
                        .forEach(c -> docker.removeContainerCmd(c.getId()).withForce(true).exec());
                docker.listNetworksCmd().exec().stream()
                        .filter(n -> n.getLabels() != null && NODE.equals(n.getLabels().get("mesh.node")))
                        .forEach(n -> docker.removeNetworkCmd(n.getId()).exec());
            }
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "mesh", "mesh")) {
                c.createStatement().execute("drop database if exists " + database + " with (force)");
            }
            PackagedMesh.deleteTree(state);
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

    /** Asks the controller's API straight (no CLI start); returns how long it took to answer 200, in ms. */
    static long api(int port, String token, String method, String path) throws IOException, InterruptedException {
        long start = System.nanoTime();
        java.net.http.HttpResponse<String> r = HTTP.send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + port + path)).header("Authorization", "Bearer " + token)
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

    /** Whether a session of this database holds the push lock (PushLock's advisory key). */
    static boolean pushLockHeld(String database) {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/" + database, "mesh", "mesh");
             PreparedStatement s = c.prepareStatement("select count(*) from pg_locks where locktype = 'advisory'"
                     + " and granted and objid::bigint = ? and database = (select oid from pg_database where datname = ?)")) {
            s.setLong(1, LOCK_OBJID);
            s.setString(2, database);
            try (ResultSet r = s.executeQuery()) {
                return r.next() && r.getLong(1) == 1;
            }
        } catch (java.sql.SQLException e) {
            throw new AssertionError("cannot read pg_locks: " + e.getMessage(), e);
        }
    }

    /** Sends SIGSTOP or SIGCONT to the agent process and what it started. */
    static void signal(MeshProcess p, String signal) throws IOException, InterruptedException {
        List<String> pids = new java.util.ArrayList<>(List.of(Long.toString(p.process.pid())));
        p.process.descendants().forEach(d -> pids.add(Long.toString(d.pid())));
        List<String> command = new java.util.ArrayList<>(List.of("kill", "-" + signal));
        command.addAll(pids);
        Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " " + pids);
    }
}
