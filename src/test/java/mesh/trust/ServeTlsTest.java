package mesh.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ServeTlsTest: what a serve verb's TLS settings become, and every wrong one refused by name (real files, real keys). */
class ServeTlsTest {

    @TempDir
    Path dir;

    @Test
    void tlsFilesGiveHttpsOnTheListenPortAndNoPlainPort() throws Exception {
        TlsDir tls = new TlsDir(dir);
        MeshCa ca = tls.ensureCa("seat", Instant.now());
        tls.ensureIssued(ca, "agent", MeshCa.Role.AGENT, "n1", List.of("n1", "10.0.0.2"), Instant.now());
        Map<String, String> props = ServeTls.properties(true, 7701, tls.serveEnv("agent"));
        assertEquals("7701", props.get("quarkus.http.ssl-port"));
        assertEquals("disabled", props.get("quarkus.http.insecure-requests"));
        assertEquals(tls.cert("agent").toString(), props.get("quarkus.tls.key-store.pem.mesh.cert"));
        assertEquals(tls.caCert().toString(), props.get("quarkus.tls.trust-store.pem.certs"));
        assertFalse(props.containsKey(ServerTrust.PLAIN));
        assertEquals(Pem.certificate(tls.cert("agent")).getNotAfter().toInstant().toString(),
                props.get(ServerTrust.CERT_NOT_AFTER), "what the agent's status reports");
    }

    @Test
    void theControllerTooTrustsTheMeshCaForClientCertificatesSoTheScraperCanReadItsMetrics() throws Exception {
        TlsDir tls = new TlsDir(dir);
        MeshCa ca = tls.ensureCa("seat", Instant.now());
        tls.ensureIssued(ca, "controller", MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("127.0.0.1"), Instant.now());
        Map<String, String> props = ServeTls.properties(false, 7700, tls.serveEnv("controller"));
        assertEquals(tls.caCert().toString(), props.get("quarkus.tls.trust-store.pem.certs"));
    }

    @Test
    void withoutFilesAServerRefusesToStartUnlessPlainHttpIsAskedFor() {
        var e = assertThrows(IllegalArgumentException.class, () -> ServeTls.properties(false, 7700, Map.of()));
        assertTrue(e.getMessage().startsWith("the controller serves HTTPS only: set MESH_TLS_CERT, MESH_TLS_KEY and MESH_TLS_CA"),
                e.getMessage());
        assertTrue(e.getMessage().contains("MESH_PLAIN_HTTP=yes"), e.getMessage());
        assertEquals(Map.of(ServerTrust.PLAIN, "yes"), ServeTls.properties(true, 7701, Map.of("MESH_PLAIN_HTTP", "yes")));
        var bad = assertThrows(IllegalArgumentException.class,
                () -> ServeTls.properties(true, 7701, Map.of("MESH_PLAIN_HTTP", "true")));
        assertEquals("MESH_PLAIN_HTTP: yes or no, got 'true'", bad.getMessage());
    }

    @Test
    void aMissingFileOrACertificateOfAnotherCaIsNamed() throws Exception {
        TlsDir tls = new TlsDir(dir.resolve("a"));
        MeshCa ca = tls.ensureCa("seat", Instant.now());
        tls.ensureIssued(ca, "controller", MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("127.0.0.1"), Instant.now());
        TlsDir other = new TlsDir(dir.resolve("b"));
        other.ensureCa("elsewhere", Instant.now());

        Map<String, String> partial = Map.of("MESH_TLS_CERT", tls.cert("controller").toString());
        var some = assertThrows(IllegalArgumentException.class, () -> ServeTls.properties(false, 7700, partial));
        assertTrue(some.getMessage().contains("MESH_TLS_KEY, MESH_TLS_CA not set"), some.getMessage());

        Map<String, String> missing = Map.of("MESH_TLS_CERT", dir.resolve("nope.crt").toString(),
                "MESH_TLS_KEY", tls.key("controller").toString(), "MESH_TLS_CA", tls.caCert().toString());
        var gone = assertThrows(IllegalArgumentException.class, () -> ServeTls.properties(false, 7700, missing));
        assertEquals("MESH_TLS_CERT: no readable file at " + dir.resolve("nope.crt"), gone.getMessage());

        Map<String, String> foreign = Map.of("MESH_TLS_CERT", tls.cert("controller").toString(),
                "MESH_TLS_KEY", tls.key("controller").toString(), "MESH_TLS_CA", other.caCert().toString());
        var wrong = assertThrows(IllegalArgumentException.class, () -> ServeTls.properties(false, 7700, foreign));
        assertTrue(wrong.getMessage().contains("was not issued by the mesh CA in MESH_TLS_CA"), wrong.getMessage());

        Map<String, String> wrongKey = new java.util.HashMap<>(tls.serveEnv("controller"));
        wrongKey.put("MESH_CA_KEY", tls.key("controller").toString());
        var key = assertThrows(IllegalArgumentException.class, () -> ServeTls.properties(false, 7700, wrongKey));
        assertTrue(key.getMessage().contains("is not the key of the mesh CA"), key.getMessage());
        Map<String, String> rightKey = new java.util.HashMap<>(tls.serveEnv("controller"));
        rightKey.put("MESH_CA_KEY", tls.caKey().toString());
        assertEquals(tls.caKey().toString(), ServeTls.properties(false, 7700, rightKey).get(ServerTrust.CA_KEY));
    }
}
