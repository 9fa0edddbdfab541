package mesh.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MeshCaTest: real keys, real signatures, chains checked by the JDK's validator and real TLS handshakes. */
class MeshCaTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void anIssuedCertificateChainsToItsCaAndNotToAnother() throws Exception {
        MeshCa ca = MeshCa.create("seat", NOW);
        MeshCa other = MeshCa.create("seat", NOW);
        MeshCa.Issued agent = ca.issue(MeshCa.Role.AGENT, "novox", List.of("novox", "10.77.0.11"), NOW);

        validate(agent.certificate(), ca.certificate());
        assertThrows(CertPathValidatorException.class, () -> validate(agent.certificate(), other.certificate()));
        assertEquals("novox", TlsContexts.commonName(agent.certificate()));
        assertEquals(NOW.plus(MeshCa.CERT_VALIDITY), Pem.expiry(agent.certificate()));
        var sans = agent.certificate().getSubjectAlternativeNames();
        assertTrue(sans.contains(List.of(7, "10.77.0.11")), "IP SAN: " + sans);
        assertTrue(sans.contains(List.of(2, "novox")), "DNS SAN: " + sans);
    }

    @Test
    void pemFilesRoundTripAndTheKeyIsOwnerOnly() throws Exception {
        MeshCa ca = MeshCa.create("seat", NOW);
        Pem.writeCertificate(dir.resolve("ca.crt"), ca.certificate());
        Pem.writeKey(dir.resolve("ca.key"), ca.key());

        assertEquals(ca.certificate(), Pem.certificate(dir.resolve("ca.crt")));
        assertArrayEquals(ca.key().getEncoded(), Pem.key(dir.resolve("ca.key")).getEncoded());
        assertEquals(Set.copyOf(PosixFilePermissions.fromString("rw-------")),
                Files.getPosixFilePermissions(dir.resolve("ca.key")));
        assertTrue(Files.readString(dir.resolve("ca.key")).startsWith("-----BEGIN PRIVATE KEY-----"));
        // openssl-style readers and the JDK agree on the certificate
        X509Certificate byJdk = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(Files.newInputStream(dir.resolve("ca.crt")));
        assertEquals(ca.certificate(), byJdk);
    }

    @Test
    void theHashIsTheCertificatesAndDiffersBetweenCas() {
        MeshCa ca = MeshCa.create("seat", NOW);
        String hash = Pem.hash(ca.certificate());
        assertTrue(hash.matches("sha256:[0-9a-f]{64}"), hash);
        assertEquals(hash, Pem.hash(Pem.certificate(Pem.text(ca.certificate()), "text")));
        assertNotEquals(hash, Pem.hash(MeshCa.create("seat", NOW).certificate()));
    }

    @Test
    void notPemIsRefusedNamingTheFile() throws Exception {
        Files.writeString(dir.resolve("bad.crt"), "hello\n");
        var e = assertThrows(IllegalArgumentException.class, () -> Pem.certificate(dir.resolve("bad.crt")));
        assertTrue(e.getMessage().contains("bad.crt") && e.getMessage().contains("no PEM certificate"), e.getMessage());
        var k = assertThrows(IllegalArgumentException.class, () -> Pem.key(dir.resolve("bad.crt")));
        assertTrue(k.getMessage().contains("no PEM private key"), k.getMessage());
    }

    @Test
    void mutualTlsHandshakeSucceedsWithinTheMeshAndFailsWithAForeignServer() throws Exception {
        MeshCa ca = MeshCa.create("seat", NOW.minusSeconds(60));
        Instant now = Instant.now();
        MeshCa.Issued controller = ca.issue(MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("127.0.0.1"), now);
        MeshCa.Issued agent = ca.issue(MeshCa.Role.AGENT, "n1", List.of("n1", "127.0.0.1"), now);
        SSLContext client = TlsContexts.withKey(ca.certificate(), controller.certificate(), controller.key());

        assertEquals(MeshCa.CONTROLLER, handshake(TlsContexts.withKey(ca.certificate(), agent.certificate(), agent.key()), client));

        MeshCa foreign = MeshCa.create("elsewhere", now);
        MeshCa.Issued impostor = foreign.issue(MeshCa.Role.AGENT, "n1", List.of("n1", "127.0.0.1"), now);
        assertThrows(SSLHandshakeException.class,
                () -> handshake(TlsContexts.withKey(foreign.certificate(), impostor.certificate(), impostor.key()), client));
    }

    @Test
    void aCertificateForAnotherAddressFailsHostChecking() throws Exception {
        MeshCa ca = MeshCa.create("seat", NOW);
        Instant now = Instant.now();
        MeshCa.Issued elsewhere = ca.issue(MeshCa.Role.AGENT, "n2", List.of("n2", "10.77.0.12"), now);
        MeshCa.Issued controller = ca.issue(MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("127.0.0.1"), now);
        SSLContext client = TlsContexts.withKey(ca.certificate(), controller.certificate(), controller.key());
        assertThrows(SSLHandshakeException.class,
                () -> handshake(TlsContexts.withKey(ca.certificate(), elsewhere.certificate(), elsewhere.key()), client));
    }

    /** One handshake on loopback, the client checking the server's address; the client certificate's CN the server saw. */
    private static String handshake(SSLContext server, SSLContext client) throws Exception {
        try (SSLServerSocket listen = (SSLServerSocket) server.getServerSocketFactory().createServerSocket(0, 1,
                InetAddress.getLoopbackAddress())) {
            listen.setNeedClientAuth(true);
            CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket s = (SSLSocket) listen.accept()) {
                    s.setSoTimeout(5000);
                    s.startHandshake();
                    InputStream in = s.getInputStream();
                    in.read();
                    return TlsContexts.commonName((X509Certificate) s.getSession().getPeerCertificates()[0]);
                } catch (Exception e) {
                    return "refused";
                }
            });
            try (SSLSocket s = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", listen.getLocalPort())) {
                SSLParameters p = s.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS");
                s.setSSLParameters(p);
                s.setSoTimeout(5000);
                s.startHandshake();
                OutputStream out = s.getOutputStream();
                out.write(1);
                out.flush();
            }
            return seen.get(10, TimeUnit.SECONDS);
        }
    }

    private static void validate(X509Certificate cert, X509Certificate anchor) throws Exception {
        PKIXParameters params = new PKIXParameters(Set.of(new TrustAnchor(anchor, null)));
        params.setRevocationEnabled(false);
        params.setDate(java.util.Date.from(NOW.plusSeconds(60)));
        CertPathValidator.getInstance("PKIX").validate(
                CertificateFactory.getInstance("X.509").generateCertPath(List.of(cert)), params);
        KeyStore.getInstance("PKCS12");
    }
}
