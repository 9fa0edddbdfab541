package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import mesh.controller.StoreSnapshot;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.Launcher;
import mesh.testbed.PackagedMesh;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.TlsContexts;
import mesh.trust.TlsDir;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.Executable;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * TlsIT is the TLS half of trust (docs/trust.md) on a mesh raised by {@code mesh install} and
 * {@code --join} ({@link InstalledMesh}): the controller serving HTTPS with the certificate of the mesh
 * CA install made, and two host agents, each with its own certificate. A push reaches both over mutual
 * TLS. Then every refusal: the controller and the agents over plain HTTP, the CLI trusting another CA,
 * an agent called without a client certificate, with one of another CA and with one that is not the
 * controller's, each refused with a clear message and nothing changed in the store or on the nodes.
 * Then a take: a module's volumes copied agent to agent over HTTPS, byte-identical, and the ticket reads
 * refusing anyone without a ticket. Last, a man in the middle: one node's agent is replaced by a server
 * with another CA's certificate for its address (the one server this test starts itself, through
 * {@link Launcher}); the push fails for that node, naming TLS, and the other node still gets its
 * declaration.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class TlsIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";
    /** The module taken over TLS (test 3). */
    static final String TAKEN = "tlstake";

    InstalledMesh mesh;
    List<String> nodes;
    Path dir;
    MeshCa ca;
    TlsDir foreign;
    PGSimpleDataSource store;
    String controllerUrl;
    Process impostor;

    @BeforeAll
    void raiseMesh() throws Exception {
        mesh = InstalledMesh.raise(2);
        nodes = mesh.names();
        dir = Files.createTempDirectory("mesh-tls-it");
        ca = InstalledTls.ca(mesh);
        store = InstalledTls.store(mesh);
        controllerUrl = mesh.cliEnv().get("MESH_CONTROLLER");
        // the first agent's certificate is issued as of 350 days ago, so it expires in 15: mesh status warns of it
        Instant now = Instant.now();
        InstalledTls.backdateAgent(mesh, nodes.get(0), now.minus(Duration.ofDays(350)));
        foreign = new TlsDir(dir.resolve("foreign"));
        MeshCa other = foreign.ensureCa("elsewhere", now);
        foreign.ensureIssued(other, "controller", MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("127.0.0.1"), now);
        for (String n : nodes) {
            foreign.ensureIssued(other, n, MeshCa.Role.AGENT, n, List.of(n, address(n)), now);
        }
        Map<String, String> agents = new TreeMap<>();
        mesh.json("node", "list").forEach(n -> agents.put(n.get("name").asText(), n.get("agent").asText()));
        for (String n : nodes) {
            assertEquals("https://" + address(n) + ":7701", agents.get(n), "the default agent URL is HTTPS");
        }
        Path catalogue = Files.createDirectories(dir.resolve("catalogue"));
        for (String n : nodes) {
            Files.writeString(catalogue.resolve("tlsweb" + n + ".yaml"), "module: tlsweb" + n + "\ncomponents:\n"
                    + "  tlsweb" + n + ".server:\n    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n"
                    + "    stop-timeout: 3s\n");
        }
        mesh.ok("catalogue", "add", catalogue.toString());
        for (String n : nodes) {
            mesh.ok("assign", n, "tlsweb" + n);
        }
    }

    @AfterAll
    void tearDown() throws Exception {
        if (impostor != null) {
            impostor.destroyForcibly();
            impostor.waitFor(30, TimeUnit.SECONDS);
        }
        if (mesh != null) {
            mesh.close();
        }
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
        }
    }

    @Test
    @Order(1)
    void aPushReachesEveryAgentOverMutualTls() throws Exception {
        PackagedMesh.await("both agents take the push over mutual TLS", Duration.ofSeconds(90),
                () -> cli("push", "--wait", "--wait-timeout", "60").exit() == 0);
        PackagedMesh.Result result = cli("status", "-o", "json");
        assertEquals(0, result.exit(), result::toString);
        JsonNode status = JSON.readTree(result.out());
        for (String n : nodes) {
            assertTrue(status.toString().contains("tlsweb" + n + ".server"), status.toString());
            JsonNode node = java.util.stream.StreamSupport.stream(status.spliterator(), false)
                    .filter(x -> x.get("node").get("name").asText().equals(n)).findFirst().orElseThrow();
            assertEquals(Pem.certificate(InstalledTls.of(mesh, n).cert("agent")).getNotAfter().toInstant().toString(),
                    node.get("agent").get("certificateNotAfter").asText(), "each agent reports its certificate's expiry");
            assertEquals(n.equals(nodes.get(0)), result.err().contains("warning: node " + n + "'s agent certificate expires on"),
                    result::toString);
        }
        // the agents run with no token and took the push; a bearer token, right or wrong, is not read
        HttpClient asController = HttpClient.newBuilder().sslContext(mesh.seatTls().clientContext("controller"))
                .connectTimeout(Duration.ofSeconds(5)).build();
        for (String n : nodes) {
            assertFalse(Files.readString(mesh.node(n).config().resolve("host.env")).contains("MESH_HOST_TOKEN"),
                    n + "'s agent runs with no token");
            for (String bearer : Arrays.asList(null, "Bearer " + "0".repeat(64))) {
                HttpResponse<String> r = send(asController, "GET", "https://" + address(n) + ":7701/v1/status", bearer);
                assertEquals(200, r.statusCode(), r.body());
            }
        }
    }

    @Test
    @Order(2)
    void everyPlainForeignOrCertificateLessCallIsRefusedClearlyAndNothingChanges() throws Exception {
        String before = StoreSnapshot.of(store);
        Map<String, String> containers = containers();
        List<Executable> checks = new ArrayList<>();
        String plainController = controllerUrl.replace("https://", "http://");

        // the CLI: plain HTTP to an HTTPS-only controller, and a controller whose CA is not the one it trusts
        checks.add(() -> refusedVerb(Map.of("MESH_CONTROLLER", plainController), "serves HTTPS only"));
        checks.add(() -> refusedVerb(Map.of("MESH_CA", foreign.caCert().toString()), "not issued by this mesh's CA"));
        checks.add(() -> refusedVerb(Map.of("MESH_CA", ""), "MESH_CA is not set"));

        // every controller endpoint over plain HTTP: no answer at all (nothing is served in clear)
        HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String admin = "Bearer " + mesh.cliEnv().get("MESH_TOKEN");
        for (String[] e : ApiEndpoints.controller()) {
            String path = e[1].replace("{name}", "x").replace("{node}", "x").replace("{module}", "x").replace("{id}", "1");
            checks.add(() -> noAnswer(plain, e[0], plainController + path, admin));
        }
        // every agent endpoint: plain HTTP, no client certificate, another CA's, a certificate that is not the controller's
        SSLContext none = TlsContexts.trusting(ca.certificate());
        SSLContext otherCa = foreign.clientContext("controller");
        MeshCa.Issued intruder = ca.issue(MeshCa.Role.CONTROLLER, "intruder", List.of("127.0.0.1"), Instant.now());
        SSLContext notController = TlsContexts.withKey(ca.certificate(), intruder.certificate(), intruder.key());
        HttpClient withoutCert = HttpClient.newBuilder().sslContext(none).connectTimeout(Duration.ofSeconds(5)).build();
        HttpClient foreignCert = HttpClient.newBuilder().sslContext(otherCa).connectTimeout(Duration.ofSeconds(5)).build();
        HttpClient wrongName = HttpClient.newBuilder().sslContext(notController).connectTimeout(Duration.ofSeconds(5)).build();
        // every endpoint of the agent, from its resource classes; GET /v1/status is no longer exempt
        List<String[]> agentEndpoints = ApiEndpoints.agent();
        assertTrue(agentEndpoints.size() >= 15 && agentEndpoints.stream().anyMatch(e -> e[1].equals("/v1/status")),
                "the agent's endpoints as found: " + agentEndpoints.size());
        // a bearer token opens nothing over HTTPS: no certificate with one is still no certificate
        String bearer = "Bearer " + "0".repeat(64);
        for (String n : nodes) {
            String agent = address(n) + ":7701";
            for (String[] e : agentEndpoints) {
                checks.add(() -> noAnswer(plain, e[0], "http://" + agent + e[1], bearer));
                checks.add(() -> assertThrows(IOException.class, () -> send(foreignCert, e[0],
                        "https://" + agent + e[1], bearer), "another CA's certificate is refused in the handshake"));
                checks.add(() -> refused(withoutCert, e[0], "https://" + agent + e[1], bearer,
                        "no client certificate was presented"));
                checks.add(() -> refused(withoutCert, e[0], "https://" + agent + e[1], null,
                        "no client certificate was presented"));
                checks.add(() -> refused(wrongName, e[0], "https://" + agent + e[1], bearer,
                        "the client certificate presented is 'intruder', not the controller's"));
            }
        }
        assertAll(checks);
        assertEquals("", StoreSnapshot.diff(before, StoreSnapshot.of(store)), "no refused call changes the store");
        assertEquals(containers, containers(), "no refused call changes a node");
    }

    /**
     * A take over TLS: module tlstake (a 4 MB file, 200 small files and links, a marker written on every
     * start) pushed to the first node and taken to the second with the packaged CLI over HTTPS. The target
     * agent GETs the archives from the source agent over HTTPS, trusting the mesh CA and checking the
     * source's address in its certificate; the take ends done, the target runs the module on byte-identical
     * data and the source runs nothing of it. The source's ticket reads answer nothing in clear, and over
     * TLS refuse a caller without a valid ticket.
     */
    @Test
    @Order(3)
    void aTakeCopiesItsVolumesAgentToAgentOverHttpsAndTheTicketReadsRefuseAnyoneElse() throws Exception {
        String source = nodes.get(0);
        String target = nodes.get(1);
        Path catalogue = Files.createDirectories(dir.resolve("take"));
        Files.writeString(catalogue.resolve(TAKEN + ".yaml"), """
                module: %s
                components:
                  %s.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "echo started >> /files/markers.log; %s"]
                    volumes: {bulk: /bulk, files: /files}
                    stop-timeout: 1s
                """.formatted(TAKEN, TAKEN, LOOP));
        mesh.ok("catalogue", "add", catalogue.toString());
        mesh.ok("assign", source, TAKEN);
        mesh.ok("push", "--wait", "--wait-timeout", "60");
        PackagedMesh.await(TAKEN + " starts on " + source, Duration.ofSeconds(60),
                () -> MeshE2EIT.quietly(() -> Files.exists(volume(source, "files").resolve("markers.log"))));
        TakeIT.fill(volume(source, "bulk"), volume(source, "files"), 4, 200);
        Path targetLog = mesh.agentLog(target);
        long mark = Files.size(targetLog);

        PackagedMesh.Result take = cli("take", target, TAKEN, "-o", "json");
        assertEquals(0, take.exit(), take::toString);
        assertEquals("done", JSON.readTree(take.out()).get("state").asText(), take::toString);

        Map<String, String> running = containers();
        assertTrue(running.getOrDefault(target + "/" + TAKEN + ".app", "").endsWith(" running"), running.toString());
        assertFalse(running.containsKey(source + "/" + TAKEN + ".app") && running.get(source + "/" + TAKEN + ".app")
                .endsWith(" running"), "the source runs no copy: " + running);
        assertEquals(TakeIT.tree(volume(source, "bulk")), TakeIT.tree(volume(target, "bulk")), "the 4 MB volume is byte-identical");
        Map<String, String> onSource = TakeIT.tree(volume(source, "files"));
        Map<String, String> onTarget = TakeIT.tree(volume(target, "files"));
        assertEquals(200 + 20 + 3 + 2, onSource.size(), "the files, their folders, the links, the marker and the root");
        assertEquals("started\nstarted\n", Files.readString(volume(target, "files").resolve("markers.log")),
                "the module started on the target on the copied data");
        onSource.remove("markers.log");
        onTarget.remove("markers.log");
        assertEquals(onSource, onTarget, "the small files and links are identical");
        String copied = new String(Files.readAllBytes(targetLog), java.nio.charset.StandardCharsets.UTF_8).substring((int) mark);
        for (String v : List.of("bulk", "files")) {
            assertTrue(copied.contains("copy of volume " + v + " of module " + TAKEN + " from https://" + address(source)
                    + ":7701: "), "the target copied " + v + " over HTTPS:\n" + copied);
        }

        // the ticket reads: nothing in clear; over TLS, no ticket, a wrong one or none at all is refused
        String read = address(source) + ":7701/v1/volumes/" + TAKEN + "/bulk/archive?kind=container";
        HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        noAnswer(plain, "GET", "http://" + read, "Bearer " + "0".repeat(64));
        HttpClient trusting = HttpClient.newBuilder().sslContext(TlsContexts.trusting(ca.certificate()))
                .connectTimeout(Duration.ofSeconds(5)).build();
        for (String ticket : Arrays.asList(null, "Bearer " + "0".repeat(64), "Bearer not-a-ticket")) {
            refused(trusting, "GET", "https://" + read, ticket, "no client certificate was presented");
            refused(trusting, "GET", "https://" + read.replace("/archive", "/manifest"), ticket, "no client certificate was presented");
        }
    }

    @Test
    @Order(4)
    void aManInTheMiddleFailsThePushForItsNodeWithATlsErrorAndTheOtherNodeGetsItsOwn() throws Exception {
        String victim = nodes.get(1);
        String other = nodes.get(0);
        mesh.killAgent(victim);
        startImpostor(victim);   // an impostor at the victim's address: a certificate for it, of another CA
        Path more = Files.createDirectories(dir.resolve("more"));
        for (String n : nodes) {
            Files.writeString(more.resolve("tlsmore" + n + ".yaml"), "module: tlsmore" + n + "\ncomponents:\n"
                    + "  tlsmore" + n + ".server:\n    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n"
                    + "    stop-timeout: 3s\n");
        }
        mesh.ok("catalogue", "add", more.toString());
        mesh.ok("assign", other, "tlsmore" + other);
        mesh.ok("assign", victim, "tlsmore" + victim);
        PackagedMesh.await("the impostor listens", Duration.ofSeconds(60), () -> {
            try {
                send(HttpClient.newBuilder().sslContext(foreign.clientContext("controller")).build(), "GET",
                        "https://" + address(victim) + ":7701/v1/status", null);
                return true;
            } catch (Exception e) {
                return false;
            }
        });
        PackagedMesh.Result push = cli("push", "-o", "json");
        assertTrue(push.exit() != 0, "a push that left a node behind fails: " + push);
        JsonNode report = JSON.readTree(push.out());
        Map<String, JsonNode> byNode = new TreeMap<>();
        report.get("nodes").forEach(r -> byNode.put(r.get("node").asText(), r));
        assertEquals("sent", byNode.get(other).get("outcome").asText(), push.toString());
        assertEquals("behind", byNode.get(victim).get("outcome").asText(), push.toString());
        String error = byNode.get(victim).get("error").asText();
        assertTrue(error.contains("not issued by this mesh's CA"), error);
        assertFalse(error.matches(".*\\b(javax|java\\.|sun\\.)\\S*Exception.*"), "no Java type in: " + error);
        PackagedMesh.await("the other node runs its new module", Duration.ofSeconds(90),
                () -> cli("status", "-o", "json").out().contains("tlsmore" + other + ".server"));
        assertTrue(containers().keySet().stream().noneMatch(c -> c.contains("tlsmore" + victim)),
                "the impostor's node got nothing: " + containers());
    }

    // ---- helpers

    /**
     * Starts, in the victim's namespace, a host agent with the victim's installed settings but another CA's
     * certificate for its address, through the installed launcher ({@link Launcher}): mesh install cannot
     * make a server whose certificate its own mesh did not issue.
     */
    void startImpostor(String victim) throws IOException {
        var n = mesh.node(victim);
        List<String> command = Launcher.of(n.state().resolve("app")).command(n.node.name(),
                List.of("host", "serve", "--config", n.config().resolve("host.env").toString()));
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(n.state().resolve("impostor.log").toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(foreign.serveEnv(victim));
        impostor = b.start();
    }

    PackagedMesh.Result cli(String... args) {
        return mesh.mesh(args);
    }

    String address(String node) {
        return mesh.testbed(node).address();
    }

    void refusedVerb(Map<String, String> change, String message) {
        Map<String, String> env = new HashMap<>(mesh.cliEnv());
        env.putAll(change);
        PackagedMesh.Result r = PackagedMesh.run(env, "node", "list");
        assertEquals(1, r.exit(), r::toString);
        assertTrue(r.err().contains(message), r::toString);
        assertFalse(r.err().matches("(?s).*\\b(javax|java\\.|sun\\.)\\S*(Exception|Error).*"), "no Java type in: " + r.err());
    }

    static HttpResponse<String> send(HttpClient client, String method, String url, String authorization)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .method(method, method.equals("GET") || method.equals("DELETE") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("{}"));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void noAnswer(HttpClient client, String method, String url, String authorization) {
        assertThrows(IOException.class, () -> send(client, method, url, authorization), method + " " + url + " over plain HTTP");
    }

    static void refused(HttpClient client, String method, String url, String authorization, String message) throws Exception {
        HttpResponse<String> r = send(client, method, url, authorization);
        assertEquals(401, r.statusCode(), method + " " + url + ": " + r.body());
        assertTrue(JSON.readTree(r.body()).get("error").asText().contains(message), method + " " + url + ": " + r.body());
    }

    /** The folder of the taken module's engine volume on the node (the test runs as root, as the agents do). */
    Path volume(String node, String volume) {
        return Path.of(mesh.engine(node).inspectVolumeCmd(TAKEN + "_" + volume).exec().getMountpoint());
    }

    /** Every container of the mesh's nodes (the seat's store and registry included): node/name → id and state. */
    Map<String, String> containers() {
        Map<String, String> ids = new TreeMap<>();
        for (String n : nodes) {
            DockerClient engine = mesh.engine(n);
            engine.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", n)).exec()
                    .forEach(c -> ids.put(n + c.getNames()[0], c.getId() + " " + c.getState()));
        }
        return ids;
    }
}
