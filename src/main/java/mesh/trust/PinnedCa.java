package mesh.trust;

import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * PinnedCa is a joining node's first contact with the controller, as k3s's join token does it: the
 * controller presents its certificate with the mesh CA after it; the CA is trusted only if its
 * SHA-256 is the hash the join line carries, and the controller's certificate must chain to it (the
 * host name is checked too, by the client). Nothing is trusted on first use; the CA found is kept
 * ({@link #ca()}) and trusted alone from then on.
 */
public final class PinnedCa implements X509TrustManager {

    private final String hash;
    private volatile X509Certificate found;

    public PinnedCa(String hash) {
        this.hash = hash;
    }

    public X509Certificate ca() {
        return found;
    }

    public SSLContext context() {
        try {
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(null, new TrustManager[] {this}, null);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        X509Certificate ca = null;
        for (X509Certificate c : chain) {
            if (Pem.hash(c).equals(hash)) {
                ca = c;
            }
        }
        if (ca == null) {
            throw new CertificateException("the controller's certificate does not come with the CA of hash " + hash
                    + " (--ca-hash): another mesh, or a man in the middle");
        }
        try {
            TlsContexts.trustManager(ca).checkServerTrusted(chain, authType);
        } catch (CertificateException e) {
            throw new CertificateException("the controller's certificate is not issued by the pinned mesh CA: " + e.getMessage());
        }
        found = ca;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("a pinned CA checks servers only");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
