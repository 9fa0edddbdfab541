package mesh.trust;

import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * MeshCa is a mesh's certificate authority: an ECDSA P-256 key and its self-signed certificate,
 * which issues the controller's and each agent's certificate. The JDK can sign certificates only
 * through internal classes, so the certificates are built with Bouncy Castle's bcpkix; the keys and
 * signatures are the JDK's own (SunEC), so no security provider is registered, in JVM or native mode:
 * bcpkix/bcprov are used in native mode too, and a native image cannot load the BC provider at run
 * time (quarkusio/quarkus#23967, "Cannot load new security provider at runtime: BC"), so every
 * Jca* helper here is left on the JDK's default providers.
 * Time is passed in: issuing is pure apart from the random numbers.
 */
public record MeshCa(X509Certificate certificate, PrivateKey key) {

    /** How long the CA is valid: ten years; it is replaced by a new install, not rotated. */
    public static final Duration CA_VALIDITY = Duration.ofDays(3650);
    /** How long an issued certificate is valid: one year; {@code mesh ca rotate-certs} reissues before. */
    public static final Duration CERT_VALIDITY = Duration.ofDays(365);
    /** The subject common name of the controller's certificate: an agent obeys only this name. */
    public static final String CONTROLLER = "mesh controller";
    /** The subject common name of the scraper's certificate: it opens {@code /metrics} and nothing else (docs/metrics.md). */
    public static final String SCRAPER = "mesh metrics";

    private static final String SIGNATURE = "SHA256withECDSA";

    /** What an issued certificate is for: a controller serves and calls agents, an agent serves, a scraper calls. */
    public enum Role { CONTROLLER, AGENT, SCRAPER }

    /** A certificate and its private key, as issued. */
    public record Issued(X509Certificate certificate, PrivateKey key) {
    }

    /** A new CA named after the mesh's seat, valid from {@code now} (an hour back, for clocks that differ). */
    public static MeshCa create(String seat, Instant now) {
        KeyPair pair = newKey();
        X500Name name = name("mesh CA " + seat);
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(), Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(CA_VALIDITY)), name, pair.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            return new MeshCa(sign(b, pair.getPrivate()), pair.getPrivate());
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot make the mesh CA: " + e.getMessage(), e);
        }
    }

    /**
     * A certificate for the controller (common name {@link #CONTROLLER}) or a node's agent (common
     * name the node's name), with the given names as SANs: an IP address becomes an IP SAN, anything
     * else a DNS SAN. Valid for {@link #CERT_VALIDITY} from {@code now}.
     */
    public Issued issue(Role role, String commonName, List<String> names, Instant now) {
        KeyPair pair = newKey();
        return new Issued(certify(role, commonName, names, pair.getPublic(), now), pair.getPrivate());
    }

    /** A certificate as {@link #issue} makes, for a key someone else holds (a joining node's). */
    public X509Certificate certify(Role role, String commonName, List<String> names, java.security.PublicKey publicKey, Instant now) {
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(certificate, serial(),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(CERT_VALIDITY)), name(commonName), publicKey);
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            b.addExtension(Extension.extendedKeyUsage, false, switch (role) {
                case CONTROLLER -> new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth});
                case AGENT -> new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth);
                case SCRAPER -> new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth);
            });
            b.addExtension(Extension.subjectAlternativeName, false, sans(names));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(publicKey));
            return sign(b, key);
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot issue a certificate for " + commonName + ": " + e.getMessage(), e);
        }
    }

    private static GeneralNames sans(List<String> names) {
        List<GeneralName> out = new ArrayList<>();
        for (String n : names) {
            if (n == null || n.isBlank()) {
                continue;
            }
            out.add(new GeneralName(isIp(n) ? GeneralName.iPAddress : GeneralName.dNSName, n));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("a certificate needs at least one name or address");
        }
        return new GeneralNames(out.toArray(GeneralName[]::new));
    }

    /** A literal IPv4 or IPv6 address (never resolved: InetAddress only parses literals given these shapes). */
    static boolean isIp(String s) {
        if (!(s.matches("[0-9.]+") && s.chars().filter(c -> c == '.').count() == 3 || s.contains(":") && s.matches("[0-9a-fA-F:.]+"))) {
            return false;
        }
        try {
            InetAddress.getByName(s);
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    private static X500Name name(String commonName) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "mesh").addRDN(BCStyle.CN, commonName).build();
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey signer) throws GeneralSecurityException {
        try {
            ContentSigner s = new JcaContentSignerBuilder(SIGNATURE).build(signer);
            return new JcaX509CertificateConverter().getCertificate(b.build(s));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e.getMessage(), e);
        }
    }

    /** A new ECDSA P-256 key pair (a joining node makes its own and sends only the public half). */
    public static KeyPair newKey() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), Entropy.source());
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make an ECDSA P-256 key: " + e.getMessage(), e);
        }
    }

    private static BigInteger serial() {
        return new BigInteger(127, Entropy.source()).add(BigInteger.ONE);
    }
}
