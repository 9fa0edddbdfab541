package mesh.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CertFilesTest: a replacement cut short after any of its steps (a crash) leaves, once
 * {@link CertFiles#recover} ran at the next start, a certificate and key that match: the old pair
 * or the new one, never one of each.
 */
class CertFilesTest {

    static final Instant NOW = Instant.parse("2026-12-01T03:00:00Z");
    final MeshCa ca = MeshCa.create("test", NOW);

    @TempDir
    Path dir;

    Path cert;
    Path key;
    BigInteger oldSerial;

    void oldPair() throws IOException {
        TlsDir tls = new TlsDir(dir);
        tls.ensureIssued(ca, "agent", MeshCa.Role.AGENT, "ace", List.of("ace", "10.0.0.12"), NOW);
        cert = tls.cert("agent");
        key = tls.key("agent");
        oldSerial = Pem.certificate(cert).getSerialNumber();
    }

    @Test
    void aCrashAfterAnyStepLeavesAMatchingPairAfterRecovery() throws IOException {
        for (int done = 0; done <= 4; done++) {
            for (Path p : List.of(dir.resolve("agent.crt"), dir.resolve("agent.key"), dir.resolve("agent.crt.next"),
                    dir.resolve("agent.key.next"))) {
                Files.deleteIfExists(p);
            }
            oldPair();
            MeshCa.Issued fresh = ca.issue(MeshCa.Role.AGENT, "ace", List.of("ace", "10.0.0.12"), NOW);
            List<CertFiles.Step> steps = CertFiles.steps(cert, key, Pem.text(fresh.certificate()) + Pem.text(ca.certificate()),
                    fresh.key());
            assertEquals(4, steps.size());
            for (int i = 0; i < done; i++) {
                steps.get(i).run();
            }
            String what = CertFiles.recover(cert, key);
            assertTrue(CertFiles.matches(cert, key), "after " + done + " steps: the certificate is for the key");
            BigInteger serial = Pem.certificate(cert).getSerialNumber();
            BigInteger expected = done >= 3 ? fresh.certificate().getSerialNumber() : oldSerial;
            assertEquals(expected, serial, "after " + done + " steps: " + (done >= 3 ? "the new pair" : "the old pair"));
            assertEquals(done == 3 ? "finished" : "kept", what, "after " + done + " steps");
            assertFalse(Files.exists(dir.resolve("agent.crt.next")) || Files.exists(dir.resolve("agent.key.next")),
                    "after " + done + " steps: nothing left beside the pair");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)), "the key stays 0600");
        }
    }

    @Test
    void aHalfWrittenNextCertificateIsDroppedNotUsed() throws IOException {
        oldPair();
        MeshCa.Issued fresh = ca.issue(MeshCa.Role.AGENT, "ace", List.of("ace"), NOW);
        List<CertFiles.Step> steps = CertFiles.steps(cert, key, Pem.text(fresh.certificate()), fresh.key());
        steps.get(0).run();
        Files.writeString(dir.resolve("agent.crt.next"), "-----BEGIN CERTIFICATE-----\nMIIB");   // cut mid-write
        assertEquals("kept", CertFiles.recover(cert, key));
        assertEquals(oldSerial, Pem.certificate(cert).getSerialNumber());
    }

    @Test
    void aPairThatIsNotOneIsRefusedNamingBothFiles() throws IOException {
        oldPair();
        Pem.writeKey(key, MeshCa.newKey().getPrivate());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CertFiles.recover(cert, key));
        assertTrue(e.getMessage().contains(cert.toString()) && e.getMessage().contains(key.toString()), e.getMessage());
    }

    @Test
    void theControllersNamesAreKeptFromItsCertificate() {
        MeshCa.Issued c = ca.issue(MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("10.0.0.11", "127.0.0.1", "localhost", "seat"), NOW);
        assertEquals(List.of("10.0.0.11", "127.0.0.1", "localhost", "seat"), ServedCertificate.names(c.certificate()));
    }
}
