package mesh.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PinnedCaTest: a joining node trusts the controller's chain only with the CA of the hash it was given, real keys. */
class PinnedCaTest {

    final MeshCa ca = MeshCa.create("seat", Instant.now());
    final MeshCa other = MeshCa.create("seat", Instant.now());
    final X509Certificate controller = ca.issue(MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("seat", "10.77.0.11"),
            Instant.now()).certificate();

    @Test
    void theChainWithThePinnedCaIsTrustedAndItsCaKept() throws Exception {
        PinnedCa pinned = new PinnedCa(Pem.hash(ca.certificate()));
        pinned.checkServerTrusted(new X509Certificate[] {controller, ca.certificate()}, "ECDHE_ECDSA");
        assertEquals(ca.certificate(), pinned.ca());
    }

    @Test
    void aChainWithoutTheCaOfTheHashIsRefusedAndNothingIsKept() {
        PinnedCa pinned = new PinnedCa(Pem.hash(other.certificate()));
        CertificateException e = assertThrows(CertificateException.class,
                () -> pinned.checkServerTrusted(new X509Certificate[] {controller, ca.certificate()}, "ECDHE_ECDSA"));
        assertTrue(e.getMessage().contains("does not come with the CA of hash"), e.getMessage());
        assertNull(pinned.ca());
    }

    @Test
    void aCertificateNotIssuedByThePinnedCaIsRefusedEvenBesideIt() {
        X509Certificate impostor = other.issue(MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("seat"), Instant.now()).certificate();
        PinnedCa pinned = new PinnedCa(Pem.hash(ca.certificate()));
        CertificateException e = assertThrows(CertificateException.class,
                () -> pinned.checkServerTrusted(new X509Certificate[] {impostor, ca.certificate()}, "ECDHE_ECDSA"));
        assertTrue(e.getMessage().startsWith("the controller's certificate is not issued by the pinned mesh CA"), e.getMessage());
        assertNull(pinned.ca());
    }
}
