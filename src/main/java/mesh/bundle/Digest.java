package mesh.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Digest is a content address, {@code sha256:<64 hex>}: the only algorithm mesh writes and accepts,
 * so a bundle reference names exactly one content and every byte fetched can be checked against it.
 */
public record Digest(String hex) {

    private static final Pattern SHA256 = Pattern.compile("sha256:([0-9a-f]{64})");

    public Digest {
        if (hex == null || !hex.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("not a sha256 hex digest: " + hex);
        }
    }

    /** Parses {@code sha256:<64 lowercase hex>}; null if the text is not one. */
    public static Digest parse(String text) {
        if (text == null) {
            return null;
        }
        var m = SHA256.matcher(text);
        return m.matches() ? new Digest(m.group(1)) : null;
    }

    public static Digest of(byte[] bytes) {
        return new Digest(HexFormat.of().formatHex(sha256().digest(bytes)));
    }

    static Digest of(MessageDigest done) {
        return new Digest(HexFormat.of().formatHex(done.digest()));
    }

    /** The digest of a file's content, read a buffer at a time. */
    public static Digest ofFile(Path file) throws IOException {
        MessageDigest sha = sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
        }
        return of(sha);
    }

    /** A new SHA-256 digest (every Java has one). */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "sha256:" + hex;
    }
}
