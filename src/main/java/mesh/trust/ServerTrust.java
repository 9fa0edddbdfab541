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
    /** Set when a server was let serve plain HTTP (MESH_PLAIN_HTTP=yes). */
    public static final String PLAIN = "mesh.tls.plain";
    static final String CA_KEY = "mesh.tls.ca-key";
    /** When the certificate this server serves expires, as {@link ServeTls} read it before boot (an instant). */
    static final String CERT_NOT_AFTER = "mesh.tls.cert-not-after";

    /**
     * How many times this process's certificate was replaced while it ran ({@link ServedCertificate}):
     * a client built with {@link #clientContext()} before a change is rebuilt, so a later call presents
     * the new certificate. Process state, like the properties above.
     */
    private static final java.util.concurrent.atomic.AtomicLong GENERATION = new java.util.concurrent.atomic.AtomicLong();

    private ServerTrust() {
    }

    /** The generation of this process's certificate: 0 as started, one more for each replacement. */
    public static long generation() {
        return GENERATION.get();
    }

    /** Records that {@code certificate} is served from now on (its expiry for the status, a new generation). */
    static void served(X509Certificate certificate) {
        System.setProperty(CERT_NOT_AFTER, certificate.getNotAfter().toInstant().toString());
        GENERATION.incrementAndGet();
    }

    /** Whether this server serves TLS (and so calls the agents over it). */
    public static boolean enabled() {
        return System.getProperty(CERT) != null;
    }

    /**
     * When the certificate this server serves expires: the one read at start, or the one a rotation
     * replaced it with ({@link ServedCertificate}); empty on plain HTTP. Costs no file read, so a status answer can carry it.
     */
    public static java.util.Optional<java.time.Instant> certificateNotAfter() {
        String notAfter = System.getProperty(CERT_NOT_AFTER);
        return notAfter == null ? java.util.Optional.empty() : java.util.Optional.of(java.time.Instant.parse(notAfter));
    }

    /** The mesh CA's certificate, read now (a rotation replaces the file). */
    public static X509Certificate ca() {
        return Pem.certificate(Path.of(System.getProperty(CA)));
    }

    /** The mesh CA with its key, when this controller was given it (the seat's), to issue a joining node's certificate. */
    public static java.util.Optional<MeshCa> issuer() {
        String key = System.getProperty(CA_KEY);
        return key == null ? java.util.Optional.empty() : java.util.Optional.of(new MeshCa(ca(), Pem.key(Path.of(key))));
    }

    /** The certificate this server serves, read now from its file (a rotation replaces it, {@link ServedCertificate}). */
    public static X509Certificate certificate() {
        return Pem.certificate(Path.of(System.getProperty(CERT)));
    }

    /** A client context: this server's certificate and key, trusting only the mesh CA. Read from the files now. */
    public static SSLContext clientContext() {
        X509Certificate own = certificate();
        // said once per client built (at the first call, after each rotation): which certificate the agents see
        org.jboss.logging.Logger.getLogger("mesh.trust").infof("calls to the agents present the certificate serial %s",
                own.getSerialNumber().toString(16));
        return TlsContexts.withKey(ca(), own, Pem.key(Path.of(System.getProperty(KEY))));
    }

    /**
     * The agent process's default TLS: the mesh CA besides the JDK's own roots, so its other
     * clients (a take's copy from another agent, a bundle registry over HTTPS) trust both. Set
     * once at the agent's start ({@code SSLContext.setDefault}).
     */
    public static SSLContext meshAndPublicRoots() {
        try {
            javax.net.ssl.TrustManagerFactory jdk = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            jdk.init((java.security.KeyStore) null);
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(null, new javax.net.ssl.TrustManager[] {new EitherTrust(TlsContexts.trustManager(ca()),
                    (javax.net.ssl.X509TrustManager) jdk.getTrustManagers()[0])}, null);
            return c;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** EitherTrust trusts a server either trust manager trusts (the JDK has no composite; written by hand). */
    private record EitherTrust(javax.net.ssl.X509TrustManager first, javax.net.ssl.X509TrustManager second)
            implements javax.net.ssl.X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws java.security.cert.CertificateException {
            first.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws java.security.cert.CertificateException {
            try {
                first.checkServerTrusted(chain, authType);
            } catch (java.security.cert.CertificateException notMesh) {
                second.checkServerTrusted(chain, authType);
            }
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return first.getAcceptedIssuers();
        }
    }
}
