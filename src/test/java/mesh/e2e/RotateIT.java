package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import mesh.controller.StoreSnapshot;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.TlsContexts;
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
 * RotateIT is certificate rotation on a mesh raised by {@code mesh install} and {@code --join}
 * ({@link InstalledMesh}; docs/trust.md, "Rotating certificates"): the seat's controller serving HTTPS
 * with the mesh CA's key, and two host agents, each with its certificate, both agents' issued by hand
 * 350 days back so they expire in 15 days. The packaged {@code mesh ca rotate-certs} reissues all
 * three: each server, read with a fresh TLS connection, presents a new certificate, from the same
 * process; each agent's key changed on its node and never crossed the wire. A push afterwards reaches
 * both agents with the controller's new client certificate, and {@code mesh status} shows the new
 * expiries. An agent that is down is named and left (exit 1), the other rotated; rotated once back.
 * Bad input changes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class RotateIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";
    static final int AGENT_PORT = 7701;

    /** Every key PEM an agent held, before and after each rotation: none may appear off its node. */
    final List<String> agentKeys = new ArrayList<>();

    InstalledMesh mesh;
    List<String> nodes;
    Path dir;
    MeshCa ca;
    PGSimpleDataSource store;

    @BeforeAll
    void raiseMesh() throws Exception {
        mesh = InstalledMesh.raise(2);
        nodes = mesh.names();
        dir = Files.createTempDirectory("mesh-rotate-it");
        ca = InstalledTls.ca(mesh);
        store = InstalledTls.store(mesh);
        // the agents' certificates issued 350 days ago: they expire in 15 days, the case rotation is for
        Instant issued = Instant.now().minus(Duration.ofDays(350));
        for (String n : nodes) {
            InstalledTls.backdateAgent(mesh, n, issued);
        }
        Path catalogue = Files.createDirectories(dir.resolve("catalogue"));
        for (String n : nodes) {
            for (String module : List.of("rotweb", "rotmore")) {
                Files.writeString(catalogue.resolve(module + n + ".yaml"), "module: " + module + n
                        + "\ncomponents:\n  " + module + n + ".server:\n    image: mesh-test/busybox:1\n"
                        + "    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 3s\n");
            }
        }
        ok("catalogue", "add", catalogue.toString());
        for (String n : nodes) {
            ok("assign", n, "rotweb" + n);
        }
        PackagedMesh.await("both agents take a push over mutual TLS", Duration.ofSeconds(90),
                () -> cli("push", "--wait", "--wait-timeout", "60").exit() == 0);
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
        }
    }

    @Test
    @Order(1)
    void rotateCertsReissuesTheControllerAndEveryAgentWithoutARestartAndNoKeyCrossesTheWire() throws Exception {
        Map<String, X509Certificate> before = served();
        Map<String, Long> pids = pids();
        Map<String, String> keysBefore = agentKeyFiles();
        agentKeys.addAll(keysBefore.values());

        PackagedMesh.Result r = cli("ca", "rotate-certs", "-o", "json");
        assertEquals(0, r.exit(), r::toString);
        Map<String, JsonNode> parties = parties(r.out());
        Map<String, X509Certificate> after = served();
        Map<String, String> keysAfter = agentKeyFiles();
        agentKeys.addAll(keysAfter.values());
        List<Executable> checks = new ArrayList<>();
        for (String party : before.keySet()) {
            checks.add(() -> assertEquals("reissued", parties.get(party).get("outcome").asText(), party + ": " + r.out()));
            checks.add(() -> assertNotEquals(before.get(party).getSerialNumber(), after.get(party).getSerialNumber(),
                    party + " presents a new certificate to a fresh connection"));
            checks.add(() -> assertEquals(after.get(party).getSerialNumber().toString(16), parties.get(party).get("serial").asText(),
                    party + ": the answer names the certificate it serves"));
            checks.add(() -> assertTrue(after.get(party).getNotAfter().after(before.get(party).getNotAfter()),
                    party + ": a later notAfter"));
            checks.add(() -> assertEquals(after.get(party).getNotAfter().toInstant().toString(),
                    parties.get(party).get("notAfter").asText(), party));
        }
        checks.add(() -> assertEquals(pids, pids(), "the same processes serve: nothing was restarted"));
        for (String n : nodes) {
            checks.add(() -> assertNotEquals(keysBefore.get(n), keysAfter.get(n), n + "'s key file changed"));
            checks.add(() -> assertTrue(Pem.certificate(agentCert(n)).getPublicKey()
                    .equals(after.get(n).getPublicKey()), n + " serves the pair written on its node"));
        }
        checks.add(() -> assertEquals(Pem.certificate(mesh.seatTls().cert("controller")).getSerialNumber(),
                after.get("controller").getSerialNumber(), "the controller serves the pair written on the seat"));
        checks.add(() -> noAgentKeyIn("the CLI's output", r.out() + r.err()));
        checks.add(() -> noAgentKeyIn("the controller's log", Files.readString(log("controller"))));
        String audit = ok("audit");
        checks.add(() -> assertTrue(audit.contains("ca rotate-certs") && audit.contains("certificates reissued: "
                + nodes.get(0) + ", " + nodes.get(1) + ", controller"), audit));
        assertAll(checks);
    }

    @Test
    @Order(2)
    void aPushAfterTheRotationReachesBothAgentsWithTheControllersNewCertificateAndStatusShowsTheNewExpiry() throws Exception {
        Map<String, X509Certificate> now = served();
        for (String n : nodes) {
            ok("assign", n, "rotmore" + n);
        }
        PackagedMesh.Result push = cli("push", "--wait", "--wait-timeout", "60", "-o", "json");
        assertEquals(0, push.exit(), push::toString);
        for (JsonNode node : JSON.readTree(push.out()).get("nodes")) {
            assertEquals("sent", node.get("outcome").asText().toLowerCase(), push.out());
        }
        assertTrue(Files.readString(log("controller")).contains("calls to the agents present the certificate serial "
                + now.get("controller").getSerialNumber().toString(16)), "the push's client was built with the new certificate");
        PackagedMesh.Result status = cli("status", "-o", "json");
        assertEquals(0, status.exit(), status::toString);
        for (String n : nodes) {
            JsonNode node = StreamSupport.stream(JSON.readTree(status.out()).spliterator(), false)
                    .filter(x -> x.get("node").get("name").asText().equals(n)).findFirst().orElseThrow();
            assertEquals(now.get(n).getNotAfter().toInstant().toString(),
                    node.get("agent").get("certificateNotAfter").asText(), n + "'s status shows its new certificate");
            assertTrue(status.out().contains("rotmore" + n + ".server"), status.out());
            assertFalse(status.err().contains("warning: node " + n), "no expiry warning once reissued: " + status.err());
        }
    }

    @Test
    @Order(3)
    void anAgentThatIsDownIsNamedAndLeftTheOtherRotatedAndARerunRotatesItOnceBack() throws Exception {
        String down = nodes.get(1);
        String up = nodes.get(0);
        Map<String, X509Certificate> before = served();
        mesh.killAgent(down);

        PackagedMesh.Result r = cli("ca", "rotate-certs");
        assertEquals(1, r.exit(), r::toString);
        assertTrue(r.err().contains(down + ": left with its old certificate: unreachable"), r::toString);
        assertTrue(r.out().contains(up + ": reissued") && r.out().contains("controller: reissued"), r::toString);
        assertFalse(r.err().matches("(?s).*\\b(javax|java\\.|sun\\.)\\S*(Exception|Error).*"), "no Java type in: " + r.err());
        assertEquals(before.get(down).getSerialNumber(), Pem.certificate(agentCert(down)).getSerialNumber(),
                "the node that was down keeps its certificate");
        assertNotEquals(before.get(up).getSerialNumber(), served(up).getSerialNumber());
        assertTrue(ok("audit").contains("left: " + down + " (unreachable)"), ok("audit"));

        mesh.startAgent(down, Map.of());
        PackagedMesh.await(down + "'s agent is back", Duration.ofSeconds(60), () -> {
            try {
                served(down);
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
        PackagedMesh.Result again = cli("ca", "rotate-certs", "--node", down);
        assertEquals(0, again.exit(), again::toString);
        assertTrue(again.out().contains("controller: left as it is, not asked"), again::toString);
        assertNotEquals(before.get(down).getSerialNumber(), served(down).getSerialNumber(), "rotated once back");
    }

    @Test
    @Order(4)
    void badInputChangesNothing() throws Exception {
        String store0 = StoreSnapshot.of(store);
        Map<String, X509Certificate> before = served();
        Map<String, String> keys = agentKeyFiles();
        PackagedMesh.Result ghost = cli("ca", "rotate-certs", "--node", "ghost");
        assertEquals(1, ghost.exit(), ghost::toString);
        assertTrue(ghost.err().contains("no node named ghost in this mesh"), ghost::toString);

        // the agent's endpoints: only the controller's certificate opens them, and a certificate of another CA is refused
        String n = nodes.get(0);
        String base = "https://" + address(n) + ":" + AGENT_PORT;
        HttpClient withoutCert = client(TlsContexts.trusting(ca.certificate()));
        MeshCa.Issued intruder = ca.issue(MeshCa.Role.CONTROLLER, "intruder", List.of("127.0.0.1"), Instant.now());
        HttpClient wrongName = client(TlsContexts.withKey(ca.certificate(), intruder.certificate(), intruder.key()));
        HttpClient asController = client(mesh.seatTls().clientContext("controller"));
        List<Executable> checks = new ArrayList<>();
        for (String[] e : List.of(new String[] {"POST", "/v1/tls/key"}, new String[] {"PUT", "/v1/tls/certificate"})) {
            checks.add(() -> assertAnswer(withoutCert, e[0], base + e[1], "{}", 401, "no client certificate was presented"));
            checks.add(() -> assertAnswer(wrongName, e[0], base + e[1], "{}", 401, "not the controller's"));
        }
        assertAll(checks);
        assertAnswer(asController, "POST", base + "/v1/tls/key", "", 200, "publicKey");
        MeshCa other = MeshCa.create("elsewhere", Instant.now());
        MeshCa.Issued foreign = other.issue(MeshCa.Role.AGENT, n, List.of(n, address(n)), Instant.now());
        assertAnswer(asController, "PUT", base + "/v1/tls/certificate",
                JSON.writeValueAsString(Map.of("certificate", Pem.text(foreign.certificate()))), 400, "not issued by this mesh's CA");
        assertAll(
                () -> assertEquals("", StoreSnapshot.diff(store0, StoreSnapshot.of(store)), "no refused request changes the store"),
                () -> assertEquals(serials(before), serials(served()), "every server serves what it served"),
                () -> assertEquals(keys, agentKeyFiles(), "no key file changed"));
    }

    // ---- helpers

    /** The certificate each server presents to a new TLS connection, by party (the controller, each node). */
    Map<String, X509Certificate> served() throws IOException {
        Map<String, X509Certificate> out = new LinkedHashMap<>();
        for (String n : nodes) {
            out.put(n, served(n));
        }
        URI controller = URI.create(mesh.cliEnv().get("MESH_CONTROLLER"));
        out.put("controller", served(controller.getHost(), controller.getPort()));
        return out;
    }

    X509Certificate served(String node) throws IOException {
        return served(address(node), AGENT_PORT);
    }

    X509Certificate served(String host, int port) throws IOException {
        SSLContext trusting = TlsContexts.trusting(ca.certificate());
        try (SSLSocket s = (SSLSocket) trusting.getSocketFactory().createSocket()) {
            s.connect(new java.net.InetSocketAddress(host, port), 5000);
            s.setSoTimeout(5000);
            s.startHandshake();
            return (X509Certificate) s.getSession().getPeerCertificates()[0];
        }
    }

    static Map<String, String> serials(Map<String, X509Certificate> certs) {
        Map<String, String> out = new LinkedHashMap<>();
        certs.forEach((k, v) -> out.put(k, v.getSerialNumber().toString(16)));
        return out;
    }

    /** The pid of each server, -1 if it is not alive: the controller's (the seat agent's record, and its JVM) and each agent's. */
    Map<String, Long> pids() throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        long controller = mesh.controllerPid();
        out.put("controller", alive(controller));
        out.put("controller's JVM", ProcessHandle.of(controller).flatMap(h -> h.descendants()
                .filter(d -> d.info().commandLine().orElse("").contains("controller serve")).findFirst())
                .map(ProcessHandle::pid).orElse(-1L));
        for (String n : nodes) {
            out.put(n, alive(mesh.agentPid(n)));
        }
        return out;
    }

    static long alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? pid : -1;
    }

    Map<String, String> agentKeyFiles() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String n : nodes) {
            out.put(n, Files.readString(InstalledTls.of(mesh, n).key("agent")));
        }
        return out;
    }

    /** The certificate file the node's agent serves ({@code MESH_TLS_CERT} in its host.env, as install wrote it). */
    Path agentCert(String node) {
        return InstalledTls.of(mesh, node).cert("agent");
    }

    String address(String node) {
        return mesh.testbed(node).address();
    }

    PackagedMesh.Result cli(String... args) {
        return mesh.mesh(args);
    }

    String ok(String... args) {
        PackagedMesh.Result r = cli(args);
        assertEquals(0, r.exit(), r::toString);
        return r.out();
    }

    /** No agent key, nor any line of its base64 body, in {@code text}. */
    void noAgentKeyIn(String where, String text) {
        for (String key : agentKeys) {
            for (String line : key.lines().filter(l -> !l.startsWith("-----")).toList()) {
                assertFalse(text.contains(line), "an agent's private key in " + where);
            }
        }
    }

    /** The controller's log: the seat's agent writes its output there. */
    Path log(String who) {
        return InstalledTls.controllerLog(mesh);
    }

    static Map<String, JsonNode> parties(String json) throws IOException {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        JSON.readTree(json).get("parties").forEach(p -> out.put(p.get("party").asText(), p));
        return out;
    }

    static HttpClient client(SSLContext tls) {
        return HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
    }

    static void assertAnswer(HttpClient client, String method, String url, String body, int status,
                             String contains) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(status, r.statusCode(), method + " " + url + ": " + r.body());
        assertTrue(r.body().contains(contains), method + " " + url + ": " + r.body());
    }
}
