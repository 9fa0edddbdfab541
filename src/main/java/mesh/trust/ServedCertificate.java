package mesh.trust;

import io.quarkus.tls.CertificateUpdatedEvent;
import io.quarkus.tls.TlsConfiguration;
import io.quarkus.tls.TlsConfigurationRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * ServedCertificate replaces the certificate a running server serves, without a restart
 * ({@code mesh ca rotate-certs}, docs/trust.md): the new pair is written where MESH_TLS_CERT and
 * MESH_TLS_KEY point ({@link CertFiles}, crash-safe), then Quarkus's TLS registry reloads its default
 * configuration from those files and the HTTP server is told, so every new connection gets the new
 * certificate. The Quarkus TLS registry guide, "Reloading certificates": {@code TlsConfiguration.reload()}
 * re-reads the key and trust stores, and the servers using it apply it when a
 * {@code CertificateUpdatedEvent} with the configuration's name is fired; in 3.33 the HTTP server
 * listens for it ({@code HttpCertificateUpdateEventListener}, registered under the server's
 * configuration name, {@code <default>} when none is set, as here) and calls
 * {@code HttpServer.updateSSLOptions}. {@code quarkus.tls.reload-period} would poll the files instead;
 * it is not used, so a half-written pair is never read. Connections open before keep the old one
 * until they close.
 */
@ApplicationScoped
public class ServedCertificate {

    /** The name the TLS registry and the HTTP server give the default configuration (TlsConfig.DEFAULT_NAME). */
    static final String DEFAULT = "<default>";

    @Inject
    TlsConfigurationRegistry registry;

    @Inject
    Event<CertificateUpdatedEvent> updated;

    /** Writes {@code certificate} (issued by the mesh CA) and its key in place of the served pair, and serves it. */
    public synchronized void replace(X509Certificate certificate, PrivateKey key) throws IOException {
        X509Certificate ca = ServerTrust.ca();
        CertFiles.replace(Path.of(System.getProperty(ServerTrust.CERT)), Path.of(System.getProperty(ServerTrust.KEY)),
                Pem.text(certificate) + Pem.text(ca), key);
        TlsConfiguration config = registry.getDefault()
                .orElseThrow(() -> new IllegalStateException("this server has no TLS configuration to reload"));
        if (!config.reload()) {
            throw new IllegalStateException("the TLS configuration could not be reloaded from "
                    + System.getProperty(ServerTrust.CERT) + " (see the server's log)");
        }
        updated.fire(new CertificateUpdatedEvent(DEFAULT, config));
        ServerTrust.served(certificate);
    }

    /**
     * The controller's own new certificate: a new key made here (the controller's key never leaves
     * the seat), the same subject and names as the one it serves, issued by {@code ca}; then served.
     */
    public X509Certificate reissueOwn(MeshCa ca, java.time.Instant now) throws IOException {
        X509Certificate had = ServerTrust.certificate();
        MeshCa.Issued issued = ca.issue(MeshCa.Role.CONTROLLER, TlsContexts.commonName(had), names(had), now);
        replace(issued.certificate(), issued.key());
        return issued.certificate();
    }

    /** The SANs of a certificate, as the names {@link MeshCa#issue} takes. */
    static List<String> names(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            var sans = certificate.getSubjectAlternativeNames();
            if (sans != null) {
                sans.forEach(san -> names.add(String.valueOf(san.get(1))));
            }
        } catch (java.security.cert.CertificateParsingException e) {
            throw new IllegalStateException("the served certificate's names cannot be read: " + e.getMessage(), e);
        }
        return names;
    }
}
