package mesh.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** TlsFailureTest: the JDK's TLS failures, as its clients raise them, in words; anything else is not TLS. */
class TlsFailureTest {

    static SSLHandshakeException handshake(String message, Throwable cause) {
        SSLHandshakeException e = new SSLHandshakeException(message);
        e.initCause(cause);
        return e;
    }

    @Test
    void anotherCaIsNamedAsSuch() {
        String why = TlsFailure.describe(new IOException("x", handshake("PKIX path validation failed",
                new CertPathValidatorException("signature check failed"))), "https://10.0.0.2:7701");
        assertTrue(why.startsWith("TLS refused: its certificate was not issued by this mesh's CA"), why);
    }

    @Test
    void anotherAddressIsNamed() {
        String why = TlsFailure.describe(handshake("x", new CertificateException(
                "No subject alternative names matching IP address 10.0.0.2 found")), "https://10.0.0.2:7701");
        assertEquals("TLS refused: its certificate is for another name or address than 10.0.0.2; nothing was sent", why);
    }

    @Test
    void plainHttpOnEitherSideIsSaid() {
        assertEquals("it speaks plain HTTP, not HTTPS: is it a server of this mesh?", TlsFailure.describe(
                new javax.net.ssl.SSLException("Unsupported or unrecognized SSL message"), "https://127.0.0.1:7700"));
        assertEquals("no answer over plain HTTP: it serves HTTPS only (use an https:// URL)", TlsFailure.describe(
                new java.net.SocketException("Unexpected end of file from server"), "http://127.0.0.1:7700"));
    }

    @Test
    void ourCertificateRefusedAndOtherFailuresAreNotTls() {
        assertTrue(TlsFailure.describe(new javax.net.ssl.SSLException("Received fatal alert: bad_certificate"),
                "https://10.0.0.2:7701").startsWith("TLS refused by the other side"));
        assertNull(TlsFailure.describe(new ConnectException("Connection refused"), "https://10.0.0.2:7701"));
    }
}
