package mesh.trust;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;

/**
 * ServerTrust is what a running server knows of its TLS: its certificate, key and the mesh CA, as
 * {@link ServeTls} chose them before boot (system properties), or plain HTTP. The controller calls
 * the agents with it (its certificate is its client certificate); a process started without the
 * serve verbs (a test's Quarkus) has none and speaks plain HTTP.
 */
public final class ServerTrust {

    static final String CERT = "mesh.tls.cert";
    static final String KEY = "mesh.tls.key";
    static final String CA = "mesh.tls.ca";
    static final String PLAIN = "mesh.tls.plain";

    private ServerTrust() {
    }

    /** Whether this server serves TLS (and so calls the agents over it). */
    public static boolean enabled() {
        return System.getProperty(CERT) != null;
    }

    /** The mesh CA's certificate, read now (a rotation replaces the file). */
    public static X509Certificate ca() {
        return Pem.certificate(Path.of(System.getProperty(CA)));
    }

    /** A client context: this server's certificate and key, trusting only the mesh CA. Read from the files now. */
    public static SSLContext clientContext() {
        return TlsContexts.withKey(ca(), Pem.certificate(Path.of(System.getProperty(CERT))),
                Pem.key(Path.of(System.getProperty(KEY))));
    }
}
