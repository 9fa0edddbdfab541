package mesh.trust;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * TlsContexts makes the JDK SSLContexts mesh's clients use: trusting the mesh CA and nothing else
 * (not the JDK's public roots: a certificate from any public CA is refused), with a client key for
 * the controller's calls to the agents. Host names are checked by the clients (HTTPS endpoint
 * identification), against the SANs the CA issued.
 */
public final class TlsContexts {

    private static final char[] NO_PASSWORD = new char[0];

    /**
     * How the key is kept in the key store that only hands it to the JDK's key manager, in memory: PKCS12 encrypts every
     * key it holds, by default with PBKDF2 of 10,000 rounds of HMAC-SHA256, and again to read it back; in a short verb's
     * C1 code that was a third of {@code mesh install}'s own CPU (a profile of it), and every agent and controller start
     * paid it. One round: the store is never written anywhere, so its encryption protects nothing.
     */
    private static final KeyStore.PasswordProtection IN_MEMORY = new KeyStore.PasswordProtection(NO_PASSWORD,
            "PBEWithHmacSHA256AndAES_256", new javax.crypto.spec.PBEParameterSpec(new byte[16], 1));

    private TlsContexts() {
    }

    /** A context that trusts only {@code ca}, and presents no certificate. */
    public static SSLContext trusting(X509Certificate ca) {
        return context(ca, null, null);
    }

    /** A context that trusts only {@code ca} and presents {@code certificate} with {@code key} when asked. */
    public static SSLContext withKey(X509Certificate ca, X509Certificate certificate, PrivateKey key) {
        return context(ca, certificate, key);
    }

    private static SSLContext context(X509Certificate ca, X509Certificate certificate, PrivateKey key) {
        try {
            KeyManager[] keys = null;
            if (certificate != null) {
                KeyStore own = KeyStore.getInstance("PKCS12");
                own.load(null, null);
                own.setEntry("mesh", new KeyStore.PrivateKeyEntry(key, new X509Certificate[] {certificate, ca}), IN_MEMORY);
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(own, NO_PASSWORD);
                keys = kmf.getKeyManagers();
            }
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(keys, new javax.net.ssl.TrustManager[] {trustManager(ca)}, null);
            return c;
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** The JDK's trust manager for a trust store holding {@code ca} alone. */
    static X509TrustManager trustManager(X509Certificate ca) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("mesh-ca", ca);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            return (X509TrustManager) tmf.getTrustManagers()[0];
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** The certificate a TLS peer presented (the first of its chain), or null: no session, none presented. */
    public static X509Certificate peer(javax.net.ssl.SSLSession session) {
        try {
            java.security.cert.Certificate[] chain = session == null ? null : session.getPeerCertificates();
            return chain != null && chain.length > 0 && chain[0] instanceof X509Certificate cert ? cert : null;
        } catch (javax.net.ssl.SSLPeerUnverifiedException none) {
            return null;
        }
    }

    /** The common name of a certificate's subject (the node's name, or {@link MeshCa#CONTROLLER}), or "". */
    public static String commonName(X509Certificate certificate) {
        Principal p = certificate.getSubjectX500Principal();
        for (String part : p.getName().split(",")) {
            if (part.startsWith("CN=")) {
                return part.substring(3).replace("\\", "");
            }
        }
        return "";
    }
}
