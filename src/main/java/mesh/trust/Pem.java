package mesh.trust;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.HexFormat;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/**
 * Pem writes and reads the mesh's certificates and keys as PEM files (what Quarkus's TLS registry and
 * openssl read), and tells a certificate's facts: its SHA-256 (the CA hash a join pins) and expiry.
 * A key is written PKCS#8 ({@code PRIVATE KEY}), readable by owner only (0600), never anywhere else.
 */
public final class Pem {

    private Pem() {
    }

    public static String text(Object certificateOrKey) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            if (certificateOrKey instanceof PrivateKey k) {
                // PKCS#8 (BEGIN PRIVATE KEY): the writer would turn an EC key info into the older EC PRIVATE KEY form
                w.writeObject(new JcaPKCS8Generator(k, null));
            } else {
                w.writeObject(certificateOrKey);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write PEM: " + e.getMessage(), e);
        }
        return out.toString();
    }

    /** Writes a certificate (readable by all: it is public) to {@code file}, replacing it. */
    public static void writeCertificate(Path file, X509Certificate certificate) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(tmp, text(certificate), StandardCharsets.US_ASCII);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Writes a private key to {@code file}, made 0600 before the key is in it, replacing it. */
    public static void writeKey(Path file, PrivateKey key) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".new");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, text(key), StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    public static X509Certificate certificate(Path file) {
        return certificate(read(file), file.toString());
    }

    /** The first certificate in {@code pem}; {@code where} names it in a message. */
    public static X509Certificate certificate(String pem, String where) {
        Object o = parse(pem, where);
        if (!(o instanceof X509CertificateHolder h)) {
            throw new IllegalArgumentException(where + ": no PEM certificate (-----BEGIN CERTIFICATE-----) in it");
        }
        try {
            return new JcaX509CertificateConverter().getCertificate(h);
        } catch (CertificateException e) {
            throw new IllegalArgumentException(where + ": not a readable certificate (" + e.getMessage() + ")");
        }
    }

    public static PrivateKey key(Path file) {
        String where = file.toString();
        Object o = parse(read(file), where);
        try {
            if (o instanceof PrivateKeyInfo info) {
                return new JcaPEMKeyConverter().getPrivateKey(info);
            }
            if (o instanceof PEMKeyPair pair) {
                return new JcaPEMKeyConverter().getKeyPair(pair).getPrivate();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": not a readable private key (" + e.getMessage() + ")");
        }
        throw new IllegalArgumentException(where + ": no PEM private key (-----BEGIN PRIVATE KEY-----) in it");
    }

    /** A public key from PEM ({@code PUBLIC KEY}); {@code where} names it in a message. */
    public static java.security.PublicKey publicKey(String pem, String where) {
        Object o = pem == null ? null : parse(pem, where);
        if (!(o instanceof org.bouncycastle.asn1.x509.SubjectPublicKeyInfo info)) {
            throw new IllegalArgumentException(where + ": no PEM public key (-----BEGIN PUBLIC KEY-----) in it");
        }
        try {
            return new JcaPEMKeyConverter().getPublicKey(info);
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": not a readable public key (" + e.getMessage() + ")");
        }
    }

    /** The CA hash a join pins: {@code sha256:} and the hex SHA-256 of the certificate's DER encoding. */
    public static String hash(X509Certificate certificate) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException("cannot hash a certificate: " + e.getMessage(), e);
        }
    }

    public static Instant expiry(X509Certificate certificate) {
        return certificate.getNotAfter().toInstant();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static Object parse(String pem, String where) {
        try (PEMParser p = new PEMParser(new StringReader(pem))) {
            return p.readObject();
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": not PEM (" + e.getMessage() + ")");
        }
    }
}
