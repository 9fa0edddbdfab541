package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ControllerClientTest: the CLI's edge over real HTTP, against a stand-in that answers the way a
 * controller does while it starts (503) and then serves. Only the client's own logic is under test;
 * the real controller's answers are in ControllerInputIT and MeshE2EIT.
 */
class ControllerClientTest {

    HttpServer server;
    final List<String> seen = new ArrayList<>();

    /** Status codes in turn (the last repeats); -503 is a 503 with Retry-After, as a starting controller answers. */
    ControllerClient answering(int... statuses) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            int n;
            synchronized (seen) {
                seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
                n = seen.size() - 1;
            }
            int status = statuses[Math.min(n, statuses.length - 1)];
            if (status == -503) {
                exchange.getResponseHeaders().add("Retry-After", "1");
                status = 503;
            }
            byte[] body = (status == 200 ? "[]" : "{\"error\":\"answer " + status + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return new ControllerClient(Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + server.getAddress().getPort(),
                "MESH_TOKEN", "t"));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aControllerInTheEnvironmentWithoutItsTokenIsRefusedNamingWhyTheConfigFileIsNotRead(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path home) throws IOException {
        java.nio.file.Path file = home.resolve(".config/mesh/config");
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.writeString(file, "MESH_CONTROLLER=https://10.0.0.1:7700\nMESH_TOKEN=from-file\n");
        // the operator's config file holds a token: mode 0600, as mesh install writes it (a file others may read is refused)
        java.nio.file.Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        VerbFailure refused = assertThrows(VerbFailure.class, () -> ControllerClient.withConfigFile(
                Map.of("HOME", home.toString(), "MESH_CONTROLLER", "http://127.0.0.1:9")));
        assertEquals("MESH_TOKEN is not set, and MESH_CONTROLLER is (http://127.0.0.1:9): with MESH_CONTROLLER in the"
                + " environment the config file (~/.config/mesh/config) is not read, as its token belongs to its own"
                + " controller; set MESH_TOKEN too, or unset MESH_CONTROLLER", refused.getMessage());
        assertEquals("from-file", ControllerClient.withConfigFile(Map.of("HOME", home.toString())).get("MESH_TOKEN"));
        assertEquals("t", ControllerClient.withConfigFile(Map.of("HOME", home.toString(), "MESH_TOKEN", "t")).get("MESH_TOKEN"));
    }

    @Test
    void aStartingControllerIsWaitedFor() throws IOException {
        assertEquals(List.of(), answering(-503, -503, 200).api().nodes());
        assertEquals(List.of("GET /v1/mesh/nodes", "GET /v1/mesh/nodes", "GET /v1/mesh/nodes"), seen);
    }

    @Test
    void a503WithoutRetryAfterIsAFailureAtOnce() throws IOException {
        mesh.wire.CallFailure f = assertThrows(mesh.wire.CallFailure.class, () -> answering(503, 200).api().nodes());
        assertEquals("answer 503", f.getMessage());
        assertEquals(1, seen.size());
    }

    @Test
    void anyOtherRefusalIsTheVerbsFailureAtOnce() throws IOException {
        mesh.wire.CallFailure f = assertThrows(mesh.wire.CallFailure.class, () -> answering(401, 200).api().nodes());
        assertEquals("answer 401", f.getMessage());
        assertEquals(1, seen.size());
    }
    /**
     * Over HTTPS, an answer without a body (204, as a DELETE gets) is read and the controller's certificate
     * still seen for its expiry warning: the JDK releases such a connection once the answer is read, and
     * reading the certificate after it failed with "connection not yet open".
     */
    @Test
    void anHttpsAnswerWithoutABodyIsReadAndTheControllersCertificateSeen(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.time.Instant now = java.time.Instant.now();
        mesh.trust.MeshCa ca = mesh.trust.MeshCa.create("client-test", now);
        mesh.trust.MeshCa.Issued served = ca.issue(mesh.trust.MeshCa.Role.CONTROLLER, mesh.trust.MeshCa.CONTROLLER,
                List.of("127.0.0.1"), now.minus(java.time.Duration.ofDays(350)));
        java.nio.file.Path caFile = dir.resolve("ca.crt");
        mesh.trust.Pem.writeCertificate(caFile, ca.certificate());
        com.sun.net.httpserver.HttpsServer https = com.sun.net.httpserver.HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        https.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(
                mesh.trust.TlsContexts.withKey(ca.certificate(), served.certificate(), served.key())));
        https.createContext("/", exchange -> {
            synchronized (seen) {
                seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        https.start();
        try {
            ControllerClient client = new ControllerClient(Map.of("MESH_CONTROLLER", "https://127.0.0.1:" + https.getAddress().getPort(),
                    "MESH_TOKEN", "t", "MESH_CA", caFile.toString()));
            client.api().removeModule("gone");
            assertEquals(List.of("DELETE /v1/mesh/catalogue/gone"), seen);
            List<String> warnings = client.certificateWarnings(now);
            assertEquals(1, warnings.size(), warnings.toString());
            assertEquals(true, warnings.get(0).startsWith("warning: the controller's certificate expires on"), warnings.toString());
        } finally {
            https.stop(0);
        }
    }
}
