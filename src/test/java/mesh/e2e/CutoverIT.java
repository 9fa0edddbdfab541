package mesh.e2e;

import static mesh.e2e.MeshE2EIT.quietly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * CutoverIT (docs/cutover.md) raises an installed mesh of one node with the public domain zurag.be, its edge a real
 * Caddy with its internal CA, and a routed module {@code web} that opted in ({@code replace: start-first}). While a
 * client sends 30 requests a second through the edge over verified TLS ({@link CutoverLoad}: HTTP/1.1, and HTTP/2
 * judged where the edge's Caddy is 2.7 or later) while a WebSocket and a long-held streaming response of another route stay
 * open (judged where the edge's Caddy is 2.7 or later; the test bed's is), an image change, an env change and a secret rotation each cut over with no failed request
 * and, where the edge's Caddy is 2.8 or later, no load of its configuration (the switch is its route's upstream file); a new
 * copy whose health check fails is removed while the old one serves on and the push exits 1 naming the check; a
 * rollback of a cutover cuts over too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class CutoverIT {

    static final String ACE = "n1";
    static final String WEB = "web.server";
    static final String EDGE = "route-proxy.server";
    static final String IMAGE_2 = "mesh-test/busybox:cutover-2";

    InstalledMesh mesh;
    Path dir;
    Path ca;
    /** What {@code caddy version} says in the edge's container, once asked. */
    String caddyVersion;
    /** The push of the image change, which the rollback goes back to. */
    long imagePush;

    @BeforeAll
    void raiseTheMesh() throws Exception {
        mesh = InstalledMesh.raise(1);
        mesh.restartAgents(Map.of(ACE, Map.of("MESH_HOST_INTERVAL", "1s")));
        mesh.awaitController(Duration.ofSeconds(60));
        mesh.engine(ACE).tagImageCmd("mesh-test/busybox:1", "mesh-test/busybox", "cutover-2").exec();
        dir = Files.createTempDirectory("mesh-cutover-catalogue");
        TestbedEdge.write(dir);
        writeWeb("mesh-test/busybox:1", "1", "");
        writeStream();
        mesh.ok("catalogue", "add", dir.toString());
        PackagedMesh.Result set = mesh.meshWithInput("token-1\n", "secret", "set", "web", "token");
        assertEquals(0, set.exit(), set.toString());
        mesh.ok("node", "public-domain", ACE, "zurag.be");
        mesh.ok("assign", ACE, "web");
        mesh.ok("assign", ACE, "stream");
        mesh.ok("push", "--wait");
        PackagedMesh.await("mesh route ca prints the edge's CA", Duration.ofSeconds(30),
                () -> quietly(() -> mesh.mesh("route", "ca", ACE).out().startsWith("-----BEGIN CERTIFICATE-----")));
        ca = dir.resolve("edge-ca.pem");
        Files.writeString(ca, mesh.ok("route", "ca", ACE));
        PackagedMesh.await("web.zurag.be answers over verified TLS", Duration.ofSeconds(30),
                () -> quietly(() -> page().contains("version 1 token token-1")));
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        PackagedMesh.deleteTree(dir);
    }

    /** 1: an image change, an env change and a secret rotation each cut over: no request fails, the stream stays. */
    @Test
    @Order(1)
    void anImageAnEnvAndASecretChangeEachCutOverWithNoFailedRequest() throws Exception {
        CutoverLoad.Stream stream = CutoverLoad.Stream.events(ca, address(), "stream.zurag.be", "/cgi-bin/stream");
        CutoverLoad.Stream socket = CutoverLoad.Stream.webSocket(ca, address(), "stream.zurag.be", "/cgi-bin/ws");
        assertTrue(socket.upgraded(Duration.ofSeconds(10)), "the WebSocket was opened through the edge: " + socket);
        List<CutoverLoad.Stream> streams = List.of(stream, socket);
        boolean streamsKept = caddyKeepsStreams();

        writeWeb(IMAGE_2, "1", "");
        mesh.ok("catalogue", "add", dir.toString());
        String preview = mesh.ok("push", "--dry-run");
        assertTrue(preview.contains("  cutover " + WEB + " (web): image changed"), preview);
        assertTrue(preview.contains("would create 0, replace 1, remove 0"), "counted as the replace it is: " + preview);
        cutOver("an image change", "version 1 token token-1", streams, streamsKept);
        imagePush = newestPush();

        writeWeb(IMAGE_2, "2", "");
        mesh.ok("catalogue", "add", dir.toString());
        cutOver("an env change", "version 2 token token-1", streams, streamsKept);

        PackagedMesh.Result set = mesh.meshWithInput("token-2\n", "secret", "set", "web", "token");
        assertEquals(0, set.exit(), set.toString());
        cutOver("a secret rotation", "version 2 token token-2", streams, streamsKept);
        stream.close();
        socket.close();
    }

    /** 2: a new copy that never passes its health check is removed; the old serves on and the push exits 1 naming it. */
    @Test
    @Order(2)
    void aNewCopyThatNeverBecomesHealthyLeavesTheOldServingAndThePushFailsNamingTheCheck() throws Exception {
        String before = containerId(WEB);
        writeWeb(IMAGE_2, "3", "1");
        mesh.ok("catalogue", "add", dir.toString());
        try (CutoverLoad load = CutoverLoad.start(ca, address(), "web.zurag.be")) {
            PackagedMesh.Result push = mesh.mesh("push", "--wait", "--wait-timeout", "60");
            assertEquals(1, push.exit(), push.toString());
            assertTrue((push.out() + push.err()).contains("GET / on port 8080"), "names the check: " + push);
            System.out.println("CutoverIT a failing health check: push: " + push);
            judge("a failing health check", load);
        }
        assertEquals(before, containerId(WEB), "the old copy was kept");
        assertTrue(page().contains("version 2 token token-2"), "the old copy serves on: " + page());
        writeWeb(IMAGE_2, "2", "");
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("push", "--wait");
        PackagedMesh.await("no copy beside the old is left", Duration.ofSeconds(30),
                () -> mesh.engine(ACE).listContainersCmd().withShowAll(true).exec().stream()
                        .noneMatch(c -> c.getNames()[0].equals("/" + WEB + ".next")));
    }

    /** 3: a rollback to the push before the env change cuts over back, again with no failed request. */
    @Test
    @Order(3)
    void aRollbackOfACutoverIsACutover() throws Exception {
        assertTrue(imagePush > 0, "the image change's push is known");
        String preview = mesh.ok("rollback", Long.toString(imagePush), "--dry-run");
        assertTrue(preview.contains("  cutover " + WEB + " (web): "), preview);
        String before = containerId(WEB);
        long loadsBefore = CutoverLoad.loads(mesh.engine(ACE), EDGE);
        try (CutoverLoad load = CutoverLoad.start(ca, address(), "web.zurag.be")) {
            mesh.ok("rollback", Long.toString(imagePush), "--yes", "--wait");
            PackagedMesh.await("the rolled back copy answers", Duration.ofSeconds(30),
                    () -> quietly(() -> page().contains("version 1 token")));
            judge("the rollback", load);
        }
        assertNotEquals(before, containerId(WEB), "the rollback replaced it");
        if (caddy28()) {
            assertEquals(loadsBefore, CutoverLoad.loads(mesh.engine(ACE), EDGE), "the rollback's switch loaded nothing");
        }
        assertTrue(Files.readString(mesh.agentLog(ACE)).contains("cutover " + WEB + " (web): the edge sends its routes"),
                "cut over, not stopped first");
    }

    /** How many cutovers of web.server the agent's log tells of. */
    private long cuts() throws IOException {
        return Files.readString(mesh.agentLog(ACE)).lines().filter(l -> l.contains("updated " + WEB + " (web): cut over; ")).count();
    }

    private long newestPush() throws IOException {
        long id = 0;
        for (JsonNode e : mesh.json("audit")) {
            if (e.get("verb").asText().equals("push")) {
                id = Math.max(id, e.get("id").asLong());
            }
        }
        return id;
    }

    private void cutOver(String what, String served, List<CutoverLoad.Stream> streams, boolean streamsKept) throws Exception {
        String before = containerId(WEB);
        long cutsBefore = cuts();
        long loadsBefore = CutoverLoad.loads(mesh.engine(ACE), EDGE);
        try (CutoverLoad load = CutoverLoad.start(ca, address(), "web.zurag.be")) {
            Thread.sleep(1000);
            mesh.ok("push", "--wait");
            PackagedMesh.await(what + ": the new copy answers", Duration.ofSeconds(30),
                    () -> quietly(() -> page().contains(served)));
            Thread.sleep(1000);
            judge(what, load);
        }
        assertNotEquals(before, containerId(WEB), what + " replaced the container");
        assertEquals(cutsBefore + 1, cuts(), what + " was cut over, not stopped first");
        if (caddy28()) {
            assertEquals(loadsBefore, CutoverLoad.loads(mesh.engine(ACE), EDGE),
                    what + ": the edge switched by its route's upstream file, with no load of Caddy's configuration");
        }
        if (streamsKept) {
            for (CutoverLoad.Stream stream : streams) {
                assertTrue(stream.open(), what + ": still open and receiving through the edge: " + stream);
            }
            System.out.println("CutoverIT " + what + ": kept " + streams);
        }
    }

    /**
     * Stops the clients and judges what they saw: no request failed and 20 or more a second over HTTP/1.1; over HTTP/2
     * too where the edge's Caddy is 2.7 or later (older ones lose a request that races a load: {@link CutoverLoad}).
     */
    private void judge(String what, CutoverLoad load) throws Exception {
        CutoverLoad.Tally tally = load.stop();
        CutoverLoad.Tally http2 = load.stopHttp2();
        System.out.println("CutoverIT " + what + ": HTTP/1.1 " + tally + "; HTTP/2 " + http2);
        assertEquals(0, tally.failed(), what + ": no request failed: " + tally);
        assertTrue(tally.perSecond() >= 20, what + ": 20 requests a second or more: " + tally);
        if (caddy27()) {
            assertEquals(0, http2.failed(), what + ": no request over HTTP/2 failed: " + http2);
        }
    }

    /**
     * Whether the edge's Caddy keeps streams across a change (2.7 and later know stream_close_delay); the test bed's
     * Caddy may be older, and then the agent says so and loads the routes without it.
     */
    private boolean caddyKeepsStreams() throws Exception {
        boolean kept = caddy27();
        if (!kept) {
            PackagedMesh.await("the agent says its Caddy (" + caddyVersion + ") does not know stream_close_delay",
                    Duration.ofSeconds(15), () -> quietly(() -> Files.readString(mesh.agentLog(ACE)).contains("does not know stream_close_delay")));
        }
        return kept;
    }

    /** Whether the edge's Caddy is 2.7 or later (the test bed's is 2.11). */
    private boolean caddy27() throws Exception {
        return caddyAtLeast(7);
    }

    /** Whether the edge's Caddy is 2.8 or later, which reads a route's upstream from its file ({@code {file.*}}). */
    private boolean caddy28() throws Exception {
        return caddyAtLeast(8);
    }

    private boolean caddyAtLeast(int minor) throws Exception {
        if (caddyVersion == null) {
            caddyVersion = CutoverLoad.exec(mesh.engine(ACE), EDGE, "caddy", "version").strip();
        }
        String[] parts = caddyVersion.replaceFirst("^v", "").split("[. ]");
        return Integer.parseInt(parts[0]) > 2 || Integer.parseInt(parts[0]) == 2 && Integer.parseInt(parts[1]) >= minor;
    }

    String page() throws IOException, InterruptedException {
        EdgeIT.Curl c = EdgeIT.curl("-sS", "--max-time", "5", "--cacert", ca.toString(),
                "--resolve", "web.zurag.be:443:" + address(), "https://web.zurag.be/");
        return c.exit() == 0 ? c.out() : "";
    }

    String address() {
        return mesh.testbed(ACE).address();
    }

    String containerId(String name) {
        return mesh.engine(ACE).inspectContainerCmd(name).exec().getId();
    }

    /** Module web: busybox httpd answering its version and token on 8080, or (broken) never listening. */
    void writeWeb(String image, String version, String broken) throws IOException {
        Files.writeString(dir.resolve("web.yaml"), """
                module: web
                components:
                  web.server:
                    image: %s
                    args: [sh, -c, "[ -n \\"$BROKEN\\" ] && exec sleep 3600; mkdir -p /www && echo \\"version $VERSION token $TOKEN\\" >/www/index.html && exec httpd -f -p 8080 -h /www"]
                    env: {VERSION: "%s", BROKEN: "%s", TOKEN: {secret: token}}
                    ports: [8080]
                    health: {http: /, port: 8080, timeoutSeconds: 15}
                    replace: start-first
                    stop-timeout: 2s
                routes:
                  web: {component: web.server, port: 8080}
                """.formatted(image, version, broken));
    }

    /**
     * Module stream: two CGI scripts of busybox httpd that never end. /cgi-bin/stream answers one server-sent event
     * every half second; /cgi-bin/ws answers a WebSocket handshake (101, its Sec-WebSocket-Accept computed by the
     * script, which busybox httpd passes on as it is since it starts with "HTTP/") and then sends a text frame
     * "tick" every half second.
     */
    void writeStream() throws IOException {
        Files.writeString(dir.resolve("stream.yaml"), """
                module: stream
                components:
                  stream.server:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "mkdir -p /www/cgi-bin && printf '%s' \\"$SSE\\" >/www/cgi-bin/stream && printf '%s' \\"$WS\\" >/www/cgi-bin/ws && chmod +x /www/cgi-bin/* && exec httpd -f -p 8090 -h /www"]
                    env:
                      SSE: |
                        #!/bin/sh
                        echo Content-Type: text/event-stream
                        echo
                        while true; do echo data: tick; echo; sleep 0.5; done
                      WS: |
                        #!/bin/sh
                        accept=$(printf '%s' "${HTTP_SEC_WEBSOCKET_KEY}258EAFA5-E914-47DA-95CA-C5AB0DC85B11" | sha1sum | cut -c1-40 | xxd -r -p | base64)
                        printf 'HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Accept: %s\\r\\n\\r\\n' "$accept"
                        while true; do printf '\\201\\004tick'; sleep 0.5; done
                    ports: [8090]
                    stop-timeout: 1s
                routes:
                  stream: {component: stream.server, port: 8090}
                """);
    }
}
