package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLContext;
import mesh.controller.StoreSnapshot;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import mesh.trust.MeshCa;
import mesh.trust.TlsContexts;
import mesh.trust.TlsDir;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.Executable;

/**
 * TlsIT is the TLS half of trust (docs/trust.md) on real parts: a controller process serving HTTPS
 * with a certificate of a mesh CA made here, and two host agents on test-bed nodes, each with its
 * own certificate. A push reaches both over mutual TLS. Then every refusal: the controller and the
 * agents over plain HTTP, the CLI trusting another CA, an agent called without a client
 * certificate, with one of another CA and with one that is not the controller's, each refused
 * with a clear message and nothing changed in the store or on the nodes. Then a take: a module's
 * volumes copied agent to agent over HTTPS, byte-identical, and the ticket reads refusing anyone
 * without a ticket. Last, a man in the middle: one node's agent is replaced by a server with another
 * CA's certificate for its address; the push fails for that node, naming TLS, and the other node
 * still gets its declaration.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TlsIT extends TlsMesh {

    /** The module taken over TLS (test 3). */
    static final String TAKEN = "tlstake";

    TlsDir foreign;

    TlsIT() {
        super("tls", 7701);
    }

    @BeforeAll
    void raiseMesh() throws Exception {
        // the first agent's certificate is issued as of 350 days ago, so it expires in 15: mesh status warns of it
        Instant now = Instant.now();
        raise(2, false, n -> n == nodes.get(0) ? now.minus(Duration.ofDays(350)) : now);
        foreign = new TlsDir(dir.resolve("foreign"));
        MeshCa other = foreign.ensureCa("elsewhere", now);
        foreign.ensureIssued(other, "controller", MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("127.0.0.1"), now);
        for (TestbedNodes.Node n : nodes) {
            foreign.ensureIssued(other, name(n), MeshCa.Role.AGENT, name(n), List.of(name(n), n.address()), now);
            assertEquals("https://" + n.address() + ":7701", added.get(name(n)).get("agent").asText(), "the default agent URL is HTTPS");
        }
        Path catalogue = Files.createDirectories(dir.resolve("catalogue"));
        for (TestbedNodes.Node n : nodes) {
            Files.writeString(catalogue.resolve("tlsweb" + n.name() + ".yaml"), "module: tlsweb" + n.name() + "\ncomponents:\n"
                    + "  tlsweb" + n.name() + ".server:\n    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n"
                    + "    stop-timeout: 3s\n");
        }
        ok("catalogue", "add", catalogue.toString());
        for (TestbedNodes.Node n : nodes) {
            ok("assign", name(n), "tlsweb" + n.name());
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
        for (TestbedNodes.Node n : nodes) {
            assertTrue(status.toString().contains("tlsweb" + n.name() + ".server"), status.toString());
            JsonNode node = java.util.stream.StreamSupport.stream(status.spliterator(), false)
                    .filter(x -> x.get("node").get("name").asText().equals(name(n))).findFirst().orElseThrow();
            assertEquals(mesh.trust.Pem.certificate(tls.cert(name(n))).getNotAfter().toInstant().toString(),
                    node.get("agent").get("certificateNotAfter").asText(), "each agent reports its certificate's expiry");
            assertEquals(n == nodes.get(0), result.err().contains("warning: node " + name(n) + "'s agent certificate expires on"),
                    result::toString);
        }
        // the agents run with no token and took the push; a bearer token, right or wrong, is not read
        HttpClient asController = HttpClient.newBuilder().sslContext(tls.clientContext("controller"))
                .connectTimeout(Duration.ofSeconds(5)).build();
        for (TestbedNodes.Node n : nodes) {
            for (String bearer : Arrays.asList(null, "Bearer " + "0".repeat(64))) {
                HttpResponse<String> r = send(asController, "GET", "https://" + n.address() + ":7701/v1/status", bearer);
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

        // the CLI: plain HTTP to an HTTPS-only controller, and a controller whose CA is not the one it trusts
        checks.add(() -> refusedVerb(Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + port), "serves HTTPS only"));
        checks.add(() -> refusedVerb(Map.of("MESH_CA", foreign.caCert().toString()), "not issued by this mesh's CA"));
        checks.add(() -> refusedVerb(Map.of("MESH_CA", ""), "MESH_CA is not set"));

        // every controller endpoint over plain HTTP: no answer at all (nothing is served in clear)
        HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (String[] e : ApiEndpoints.controller()) {
            String path = e[1].replace("{name}", "x").replace("{node}", "x").replace("{module}", "x");
            checks.add(() -> noAnswer(plain, e[0], "http://127.0.0.1:" + port + path, "Bearer " + admin));
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
        for (TestbedNodes.Node n : nodes) {
            for (String[] e : agentEndpoints) {
                checks.add(() -> noAnswer(plain, e[0], "http://" + n.address() + ":7701" + e[1], bearer));
                checks.add(() -> assertThrows(IOException.class, () -> send(foreignCert, e[0],
                        "https://" + n.address() + ":7701" + e[1], bearer), "another CA's certificate is refused in the handshake"));
                checks.add(() -> refused(withoutCert, e[0], "https://" + n.address() + ":7701" + e[1], bearer,
                        "no client certificate was presented"));
                checks.add(() -> refused(withoutCert, e[0], "https://" + n.address() + ":7701" + e[1], null,
                        "no client certificate was presented"));
                checks.add(() -> refused(wrongName, e[0], "https://" + n.address() + ":7701" + e[1], bearer,
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
        TestbedNodes.Node source = nodes.get(0);
        TestbedNodes.Node target = nodes.get(1);
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
        ok("catalogue", "add", catalogue.toString());
        ok("assign", name(source), TAKEN);
        ok("push", "--wait", "--wait-timeout", "60");
        PackagedMesh.await(TAKEN + " starts on " + name(source), Duration.ofSeconds(60),
                () -> MeshE2EIT.quietly(() -> Files.exists(volume(source, "files").resolve("markers.log"))));
        TakeIT.fill(volume(source, "bulk"), volume(source, "files"), 4, 200);
        Path targetLog = MeshProcess.LOGS.resolve(logPrefix + "-agent-" + target.name() + ".log");
        long mark = Files.size(targetLog);

        PackagedMesh.Result take = cli("take", name(target), TAKEN, "-o", "json");
        assertEquals(0, take.exit(), take::toString);
        assertEquals("done", JSON.readTree(take.out()).get("state").asText(), take::toString);

        Map<String, String> running = containers();
        assertTrue(running.getOrDefault(target.name() + "/" + TAKEN + ".app", "").endsWith(" running"), running.toString());
        assertFalse(running.containsKey(source.name() + "/" + TAKEN + ".app") && running.get(source.name() + "/" + TAKEN + ".app")
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
            assertTrue(copied.contains("copy of volume " + v + " of module " + TAKEN + " from https://" + source.address()
                    + ":7701: "), "the target copied " + v + " over HTTPS:\n" + copied);
        }

        // the ticket reads: nothing in clear; over TLS, no ticket, a wrong one or none at all is refused
        String read = source.address() + ":7701/v1/volumes/" + TAKEN + "/bulk/archive?kind=container";
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
        TestbedNodes.Node victim = nodes.get(1);
        TestbedNodes.Node other = nodes.get(0);
        agents.remove(name(victim)).close();
        startAgent(victim, foreign);   // an impostor at the victim's address: a certificate for it, of another CA
        Path more = Files.createDirectories(dir.resolve("more"));
        for (TestbedNodes.Node n : nodes) {
            Files.writeString(more.resolve("tlsmore" + n.name() + ".yaml"), "module: tlsmore" + n.name() + "\ncomponents:\n"
                    + "  tlsmore" + n.name() + ".server:\n    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n"
                    + "    stop-timeout: 3s\n");
        }
        ok("catalogue", "add", more.toString());
        ok("assign", name(other), "tlsmore" + other.name());
        ok("assign", name(victim), "tlsmore" + victim.name());
        PackagedMesh.await("the impostor listens", Duration.ofSeconds(60), () -> {
            try {
                send(HttpClient.newBuilder().sslContext(foreign.clientContext("controller")).build(), "GET",
                        "https://" + victim.address() + ":7701/v1/status", null);
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
        assertEquals("sent", byNode.get(name(other)).get("outcome").asText(), push.toString());
        assertEquals("behind", byNode.get(name(victim)).get("outcome").asText(), push.toString());
        String error = byNode.get(name(victim)).get("error").asText();
        assertTrue(error.contains("not issued by this mesh's CA"), error);
        assertFalse(error.matches(".*\\b(javax|java\\.|sun\\.)\\S*Exception.*"), "no Java type in: " + error);
        PackagedMesh.await("the other node runs its new module", Duration.ofSeconds(90),
                () -> cli("status", "-o", "json").out().contains("tlsmore" + other.name() + ".server"));
        assertTrue(containers().keySet().stream().noneMatch(c -> c.contains("tlsmore" + victim.name())),
                "the impostor's node got nothing: " + containers());
    }

    // ---- helpers

    void refusedVerb(Map<String, String> change, String message) {
        Map<String, String> env = new HashMap<>(cliEnv());
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
    static Path volume(TestbedNodes.Node n, String volume) throws IOException {
        try (DockerClient engine = TestbedNodes.client(n)) {
            return Path.of(engine.inspectVolumeCmd(TAKEN + "_" + volume).exec().getMountpoint());
        }
    }

    Map<String, String> containers() {
        Map<String, String> ids = new TreeMap<>();
        for (TestbedNodes.Node n : nodes) {
            try (DockerClient engine = TestbedNodes.client(n)) {
                engine.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", name(n))).exec()
                        .forEach(c -> ids.put(n.name() + c.getNames()[0], c.getId() + " " + c.getState()));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
        return ids;
    }

    @Override
    String unlabelledVolumes() {
        return TAKEN + "_";   // a take's copy and old copy
    }
}
