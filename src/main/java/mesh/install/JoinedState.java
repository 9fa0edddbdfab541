package mesh.install;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.List;
import mesh.plan.JoinRerun;
import mesh.trust.Pem;
import mesh.trust.TlsContexts;
import mesh.trust.TlsDir;

/**
 * JoinedState reads what a state dir holds of an earlier join, for {@link JoinRerun}: the install
 * journal's steps, the node and the address the agent's certificate names (its common name and its
 * IP address), and the hash of the mesh CA kept beside it. A file that is absent or unreadable gives
 * null, so the rule sees a node that never joined.
 */
public final class JoinedState {

    private JoinedState() {
    }

    public static JoinRerun.Held read(Path stateDir) {
        TlsDir tls = new TlsDir(stateDir.resolve("tls"));
        String node = null;
        String address = null;
        String caHash = null;
        try {
            if (Files.isRegularFile(tls.cert("agent")) && Files.isRegularFile(tls.key("agent"))) {
                X509Certificate cert = Pem.certificate(tls.cert("agent"));
                node = TlsContexts.commonName(cert).isEmpty() ? null : TlsContexts.commonName(cert);
                address = ipAddress(cert);
            }
            if (Files.isRegularFile(tls.caCert())) {
                caHash = Pem.hash(Pem.certificate(tls.caCert()));
            }
        } catch (RuntimeException | CertificateParsingException unreadable) {
            node = null;   // a certificate that cannot be read proves no join
        }
        return new JoinRerun.Held(new InstallJournal(stateDir).done(), node, address, caHash);
    }

    /** The certificate's first IP address (type 7 of its subject alternative names), or null. */
    private static String ipAddress(X509Certificate cert) throws CertificateParsingException {
        var names = cert.getSubjectAlternativeNames();
        if (names == null) {
            return null;
        }
        for (List<?> n : names) {
            if (Integer.valueOf(7).equals(n.get(0))) {
                return (String) n.get(1);
            }
        }
        return null;
    }
}
