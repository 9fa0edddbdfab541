package mesh.trust;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TlsDir is a machine's TLS files, under its state dir's {@code tls/}: the mesh CA's certificate
 * ({@code ca.crt}), on the seat its key ({@code ca.key}, 0600: never in the store, never sent), the
 * agent's certificate and key and, on the seat, the controller's. A certificate file holds its
 * chain (the certificate, then the CA's), so a client sees the CA it is checked against.
 */
public record TlsDir(Path dir) {

    public Path caCert() {
        return dir.resolve("ca.crt");
    }

    public Path caKey() {
        return dir.resolve("ca.key");
    }

    public Path cert(String who) {
        return dir.resolve(who + ".crt");
    }

    public Path key(String who) {
        return dir.resolve(who + ".key");
    }

    /** The seat's CA: the one made before (a rerun keeps it, and so every certificate it issued), or a new one. */
    public MeshCa ensureCa(String seat, Instant now) throws IOException {
        if (Files.isRegularFile(caCert()) && Files.isRegularFile(caKey())) {
            return new MeshCa(Pem.certificate(caCert()), Pem.key(caKey()));
        }
        MeshCa ca = MeshCa.create(seat, now);
        Files.createDirectories(dir);
        Pem.writeKey(caKey(), ca.key());
        Pem.writeCertificate(caCert(), ca.certificate());
        return ca;
    }

    /** Issues {@code who}'s certificate unless one of this CA for the same names is there already (a rerun). */
    public void ensureIssued(MeshCa ca, String who, MeshCa.Role role, String commonName, List<String> names, Instant now)
            throws IOException {
        if (Files.isRegularFile(cert(who)) && Files.isRegularFile(key(who))) {
            try {
                X509Certificate had = Pem.certificate(cert(who));
                had.verify(ca.certificate().getPublicKey());
                if (TlsContexts.commonName(had).equals(commonName)) {
                    return;
                }
            } catch (java.security.GeneralSecurityException | IllegalArgumentException other) {
                // of another CA, or unreadable: issued again below
            }
        }
        MeshCa.Issued issued = ca.issue(role, commonName, names, now);
        writeIssued(who, issued.certificate(), issued.key(), ca.certificate());
    }

    /** Writes a certificate (with the CA after it) and its key. */
    public void writeIssued(String who, X509Certificate cert, java.security.PrivateKey key, X509Certificate ca) throws IOException {
        Files.createDirectories(dir);
        Pem.writeKey(key(who), key);
        Path tmp = dir.resolve(who + ".crt.new");
        Files.writeString(tmp, Pem.text(cert) + Pem.text(ca));
        Files.move(tmp, cert(who), java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The serve verbs' settings for {@code who}'s files (docs/trust.md). */
    public Map<String, String> serveEnv(String who) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(ServeTls.CERT, cert(who).toString());
        env.put(ServeTls.KEY, key(who).toString());
        env.put(ServeTls.CA, caCert().toString());
        return env;
    }

    /** A client context with {@code who}'s certificate, trusting only the mesh CA. */
    public javax.net.ssl.SSLContext clientContext(String who) {
        return TlsContexts.withKey(Pem.certificate(caCert()), Pem.certificate(cert(who)), Pem.key(key(who)));
    }
}
