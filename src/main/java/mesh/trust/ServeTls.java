package mesh.trust;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * ServeTls turns a serve verb's TLS settings into the Quarkus properties set before boot: the
 * certificate and key (PEM files) in the TLS registry's default key store, HTTPS on the listen port
 * and the plain port off ({@code quarkus.http.insecure-requests=disabled}); both servers trust the
 * mesh CA for client certificates ({@code client-auth=request}: the guard, not the handshake, answers
 * a caller without one, so it gets a 401 that says why): the agent's callers, and the scrape of
 * {@code /metrics} on either (docs/metrics.md). The files are read here once, so a wrong
 * one stops the start with a message naming it rather than a stack trace from the HTTP server.
 *
 * <p>Without TLS files a server does not start, unless {@code MESH_PLAIN_HTTP=yes}: plain HTTP, for
 * tests and a trusted loopback only (docs/trust.md). The chosen files are also set as the
 * {@code mesh.tls.*} system properties, read by {@link ServerTrust} at run time.
 */
public final class ServeTls {

    public static final String CERT = "MESH_TLS_CERT";
    public static final String KEY = "MESH_TLS_KEY";
    public static final String CA = "MESH_TLS_CA";
    public static final String PLAIN = "MESH_PLAIN_HTTP";

    private ServeTls() {
    }

    /** The properties for a server ({@code controller} or {@code host agent}) listening on {@code port}. */
    public static Map<String, String> properties(boolean agent, int port, Map<String, String> env) {
        Map<String, String> props = new LinkedHashMap<>();
        String who = agent ? "the host agent" : "the controller";
        String plain = env.get(PLAIN);
        if (plain != null && !plain.isBlank() && !plain.equals("yes") && !plain.equals("no")) {
            throw new IllegalArgumentException(PLAIN + ": yes or no, got '" + plain + "'");
        }
        boolean given = isSet(env, CERT) || isSet(env, KEY) || isSet(env, CA);
        if ("yes".equals(plain) && !given) {
            props.put(ServerTrust.PLAIN, "yes");
            return props;
        }
        if (!isSet(env, CERT) || !isSet(env, KEY) || !isSet(env, CA)) {
            throw new IllegalArgumentException(who + " serves HTTPS only: set " + CERT + ", " + KEY + " and " + CA
                    + " to its certificate, its key and the mesh CA (PEM files; mesh install writes them)"
                    + (given ? "; " + missing(env) + " not set" : "")
                    + ", or " + PLAIN + "=yes to serve plain HTTP on a trusted loopback (tests only)");
        }
        Path cert = file(env, CERT);
        Path key = file(env, KEY);
        Path ca = file(env, CA);
        try {
            CertFiles.recover(cert, key);   // a rotation a crash cut short is finished or undone first
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(CERT + ": " + cert + " cannot be checked against " + KEY + " (" + e.getMessage() + ")");
        }
        X509Certificate own = Pem.certificate(cert);
        Pem.key(key);
        X509Certificate mesh = Pem.certificate(ca);
        try {
            own.verify(mesh.getPublicKey());
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalArgumentException(CERT + ": " + cert + " was not issued by the mesh CA in " + CA + " (" + ca + ")");
        }
        props.put("quarkus.http.ssl-port", Integer.toString(port));
        props.put("quarkus.http.insecure-requests", "disabled");
        props.put("quarkus.tls.key-store.pem.mesh.cert", cert.toString());
        props.put("quarkus.tls.key-store.pem.mesh.key", key.toString());
        // both check a client certificate against the mesh CA: the agent's callers (the controller, a take's
        // ticket reads) and the scrape of either's /metrics (the scraper's certificate, docs/metrics.md)
        props.put("quarkus.tls.trust-store.pem.certs", ca.toString());
        props.put("quarkus.http.ssl.client-auth", "request");
        props.put(ServerTrust.CERT, cert.toString());
        props.put(ServerTrust.CERT_NOT_AFTER, own.getNotAfter().toInstant().toString());
        props.put(ServerTrust.KEY, key.toString());
        props.put(ServerTrust.CA, ca.toString());
        if (!agent && isSet(env, "MESH_CA_KEY")) {
            // the seat's controller issues a joining node's certificate (docs/trust.md): the key must be the CA's
            Path caKey = file(env, "MESH_CA_KEY");
            java.security.PrivateKey k = Pem.key(caKey);
            if (!matches(mesh, k)) {
                throw new IllegalArgumentException("MESH_CA_KEY: " + caKey + " is not the key of the mesh CA in " + CA);
            }
            props.put(ServerTrust.CA_KEY, caKey.toString());
        }
        return props;
    }

    /** Whether {@code key} is the private half of {@code ca}'s key: a signature made with it verifies. */
    static boolean matches(X509Certificate ca, java.security.PrivateKey key) {
        try {
            java.security.Signature s = java.security.Signature.getInstance("SHA256withECDSA");
            s.initSign(key);
            s.update(new byte[] {1});
            byte[] sig = s.sign();
            s.initVerify(ca.getPublicKey());
            s.update(new byte[] {1});
            return s.verify(sig);
        } catch (java.security.GeneralSecurityException e) {
            return false;
        }
    }

    private static String missing(Map<String, String> env) {
        return String.join(", ", java.util.stream.Stream.of(CERT, KEY, CA).filter(k -> !isSet(env, k)).toList());
    }

    private static boolean isSet(Map<String, String> env, String name) {
        return env.get(name) != null && !env.get(name).isBlank();
    }

    private static Path file(Map<String, String> env, String name) {
        Path p = Path.of(env.get(name).strip()).toAbsolutePath();
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new IllegalArgumentException(name + ": no readable file at " + p);
        }
        return p;
    }
}
