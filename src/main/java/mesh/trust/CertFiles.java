package mesh.trust;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * CertFiles replaces a server's certificate and key files (the paths MESH_TLS_CERT and MESH_TLS_KEY
 * name, which Quarkus reloads from) so that a crash at any moment leaves a matching pair behind.
 * Two files cannot be renamed at once, and the paths are fixed by the server's settings, so the
 * order is fixed and a start-time check finishes a replacement a crash cut short:
 *
 * <pre>
 *   1. write KEY.next (0600) and CERT.next, each synced     crash: old pair in place, .next dropped at start
 *   2. rename KEY.next -> KEY                               crash: new key, old cert: CERT.next matches KEY,
 *                                                                   so {@link #recover} renames it at start
 *   3. rename CERT.next -> CERT                             done: new pair
 * </pre>
 *
 * {@link #recover} runs before a serve verb reads its files ({@link ServeTls}). Written by hand: no
 * library writes a key pair as one transaction; each rename is atomic on one file system
 * ({@code ATOMIC_MOVE}), the files sit side by side.
 */
public final class CertFiles {

    static final String NEXT = ".next";

    private CertFiles() {
    }

    /** One step of a replacement, run in order; a test stops after any of them, as a crash would. */
    @FunctionalInterface
    public interface Step {
        void run() throws IOException;
    }

    /** Replaces the pair at {@code cert} and {@code key} with {@code chainPem} (the certificate, then the CA's) and {@code newKey}. */
    public static void replace(Path cert, Path key, String chainPem, PrivateKey newKey) throws IOException {
        for (Step s : steps(cert, key, chainPem, newKey)) {
            s.run();
        }
    }

    /** The steps of {@link #replace}, in their order (see the class comment). */
    public static List<Step> steps(Path cert, Path key, String chainPem, PrivateKey newKey) {
        Path keyNext = next(key);
        Path certNext = next(cert);
        return List.of(
                () -> {
                    Files.deleteIfExists(keyNext);
                    Files.createFile(keyNext, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                    write(keyNext, Pem.text(newKey));
                },
                () -> write(certNext, chainPem),
                () -> move(keyNext, key),
                () -> move(certNext, cert));
    }

    /**
     * Leaves a matching pair at {@code cert} and {@code key} after a replacement a crash cut short,
     * and says what it did: {@code "kept"} (the pair matched; a half-written next pair is dropped) or
     * {@code "finished"} (the new key was in place, its certificate is renamed beside it). A pair that
     * matches neither way is not mesh's doing and is refused, naming both files.
     */
    public static String recover(Path cert, Path key) throws IOException {
        Path certNext = next(cert);
        Path keyNext = next(key);
        if (matches(cert, key)) {
            Files.deleteIfExists(certNext);
            Files.deleteIfExists(keyNext);
            return "kept";
        }
        if (Files.isRegularFile(certNext) && matches(certNext, key)) {
            move(certNext, cert);
            Files.deleteIfExists(keyNext);
            return "finished";
        }
        throw new IllegalArgumentException("the certificate " + cert + " is not for the key " + key
                + " (MESH_TLS_CERT and MESH_TLS_KEY must be one pair)");
    }

    /** Whether the certificate file's first certificate is for the key file's key (both readable). */
    static boolean matches(Path cert, Path key) {
        try {
            X509Certificate c = Pem.certificate(cert);
            PrivateKey k = Pem.key(key);
            return ServeTls.matches(c, k);
        } catch (RuntimeException unreadable) {
            return false;
        }
    }

    static Path next(Path file) {
        return file.resolveSibling(file.getFileName() + NEXT);
    }

    private static void write(Path file, String text) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
            ch.force(true);
        }
    }

    private static void move(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel dir = FileChannel.open(to.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
            dir.force(true);   // the rename itself reaches the disk before the next step
        } catch (IOException notSupported) {
            // a file system that cannot sync a directory: the rename is still atomic
        }
    }
}
