package mesh.trust;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * StateSeal seals a state backup (the store's content and the seat's keys) under a {@link RecoveryKey} and
 * opens one with the passphrase. An artifact is
 * <pre>
 *   MESHSTATE\n  | header length (4 bytes) | header (UTF-8 lines key=value) | nonce | AES-256-GCM ciphertext | tag
 * </pre>
 * The header is readable without the passphrase (format, build, mesh, time, the Argon2id salt and cost, a
 * passphrase check, the sealed part's length) and authenticated as the ciphertext's associated data, so
 * changing a byte of either is refused. {@link #open} refuses, naming the reason, before it derives a key
 * whatever it can tell without one (not an artifact, truncated, a newer format or build).
 */
public final class StateSeal {

    /** The artifact format this build writes and the newest it opens. */
    public static final int FORMAT = 1;

    private static final byte[] MAGIC = "MESHSTATE\n".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_HEADER = 4096;

    private StateSeal() {
    }

    /** Header is what an artifact says of itself before it is opened. */
    public record Header(int format, String build, int wire, String mesh, Instant made, RecoveryKey.Kdf kdf,
                         String check, long sealedBytes) {
    }

    /** Opened is an artifact's header and the content it sealed. */
    public record Opened(Header header, byte[] content) {
    }

    /** Reason is why an artifact was refused; its name is stable, the CLI branches on it. */
    public enum Reason { NOT_A_STATE_BACKUP, TRUNCATED, ALTERED, NEWER_FORMAT, NEWER_BUILD, WRONG_PASSPHRASE }

    /** Refused is an artifact that does not open, with its {@link Reason}. */
    public static final class Refused extends RuntimeException {
        private final Reason reason;

        public Refused(Reason reason, String message) {
            super(message);
            this.reason = reason;
        }

        public Reason reason() {
            return reason;
        }
    }

    /** The artifact of {@code content} sealed under {@code key}, made by build {@code build} (wire level {@code wire}). */
    public static byte[] seal(RecoveryKey key, String build, int wire, String mesh, Instant made, byte[] content) {
        long sealedBytes = 12L + content.length + 16L;
        Header header = new Header(FORMAT, build, wire, mesh, made, key.kdf(), key.check(), sealedBytes);
        byte[] head = headerBytes(header);
        byte[] prefix = ByteBuffer.allocate(MAGIC.length + 4 + head.length).put(MAGIC).putInt(head.length).put(head).array();
        byte[] sealed = SecretSeal.sealBytes(key.key(), content, prefix);
        byte[] out = Arrays.copyOf(prefix, prefix.length + sealed.length);
        System.arraycopy(sealed, 0, out, prefix.length, sealed.length);
        return out;
    }

    /** The header of {@code artifact}, read without the passphrase; {@link Refused} when it has none to read. */
    public static Header header(byte[] artifact) {
        return header(artifact, prefixLength(artifact));
    }

    /**
     * The content of {@code artifact} opened with {@code passphrase} by a build of wire level {@code wire}; a
     * {@link Refused} naming the reason otherwise.
     */
    public static Opened open(byte[] artifact, char[] passphrase, int wire) {
        int prefix = prefixLength(artifact);
        Header h = header(artifact, prefix);
        if (h.format() > FORMAT) {
            throw new Refused(Reason.NEWER_FORMAT, "the state backup has format " + h.format() + ", this build (format "
                    + FORMAT + ") cannot read it: install with mesh " + h.build() + " or newer");
        }
        if (h.wire() > wire) {
            throw new Refused(Reason.NEWER_BUILD, "the state backup was made by mesh " + h.build() + " (wire level " + h.wire()
                    + "), newer than this build (wire level " + wire + "): install with that build or newer");
        }
        long have = artifact.length - (long) prefix;
        if (have < h.sealedBytes()) {
            throw new Refused(Reason.TRUNCATED, "the state backup is truncated: " + have + " of its " + h.sealedBytes()
                    + " sealed bytes are there");
        }
        if (have > h.sealedBytes()) {
            throw new Refused(Reason.ALTERED, "the state backup was altered: " + (have - h.sealedBytes())
                    + " bytes follow its sealed part");
        }
        RecoveryKey key = RecoveryKey.derive(passphrase, h.kdf());
        if (!key.check().equals(h.check())) {
            throw new Refused(Reason.WRONG_PASSPHRASE, "the passphrase does not open this state backup (made "
                    + h.made() + " for mesh " + h.mesh() + ")");
        }
        try {
            byte[] content = SecretSeal.openBytes(key.key(), Arrays.copyOfRange(artifact, prefix, artifact.length),
                    Arrays.copyOf(artifact, prefix));
            return new Opened(h, content);
        } catch (SecretSeal.Unopened e) {
            throw new Refused(Reason.ALTERED, "the state backup was altered: the passphrase is right, its sealed content"
                    + " or header does not authenticate");
        }
    }

    private static int prefixLength(byte[] a) {
        if (a.length == 0) {
            throw new Refused(Reason.NOT_A_STATE_BACKUP, "not a mesh state backup: it is empty");
        }
        int magic = Math.min(a.length, MAGIC.length);
        if (!Arrays.equals(a, 0, magic, MAGIC, 0, magic)) {
            throw new Refused(Reason.NOT_A_STATE_BACKUP, "not a mesh state backup (it does not start with MESHSTATE)");
        }
        if (a.length < MAGIC.length + 4) {
            throw new Refused(Reason.TRUNCATED, "the state backup is truncated: " + a.length + " bytes, no header");
        }
        int len = ByteBuffer.wrap(a, MAGIC.length, 4).getInt();
        if (len <= 0 || len > MAX_HEADER) {
            throw new Refused(Reason.ALTERED, "the state backup was altered: a header of " + len + " bytes");
        }
        if (a.length < MAGIC.length + 4 + len) {
            throw new Refused(Reason.TRUNCATED, "the state backup is truncated: its header is cut");
        }
        return MAGIC.length + 4 + len;
    }

    private static byte[] headerBytes(Header h) {
        String text = "format=" + h.format() + "\nbuild=" + h.build() + "\nwire=" + h.wire() + "\nmesh=" + h.mesh()
                + "\nmade=" + h.made() + "\nkdf=argon2id\nsalt=" + HexFormat.of().formatHex(h.kdf().salt())
                + "\nmemory-kib=" + h.kdf().memoryKiB() + "\npasses=" + h.kdf().iterations() + "\nlanes="
                + h.kdf().parallelism() + "\ncheck=" + h.check() + "\nsealed-bytes=" + h.sealedBytes() + "\n";
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Header header(byte[] a, int prefix) {
        String text = new String(a, MAGIC.length + 4, prefix - MAGIC.length - 4, StandardCharsets.UTF_8);
        Map<String, String> f = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                f.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        try {
            int format = Integer.parseInt(f.get("format"));
            if (format > FORMAT) {
                return new Header(format, f.getOrDefault("build", "?"), 0, f.get("mesh"), null, null, null, 0);
            }
            RecoveryKey.Kdf kdf = new RecoveryKey.Kdf(HexFormat.of().parseHex(f.get("salt")),
                    Integer.parseInt(f.get("memory-kib")), Integer.parseInt(f.get("passes")), Integer.parseInt(f.get("lanes")));
            if (!"argon2id".equals(f.get("kdf")) || kdf.problem() != null || f.get("check") == null || f.get("build") == null) {
                throw new IllegalArgumentException("key parameters");
            }
            return new Header(format, f.get("build"), Integer.parseInt(f.get("wire")), f.get("mesh"),
                    Instant.parse(f.get("made")), kdf, f.get("check"), Long.parseLong(f.get("sealed-bytes")));
        } catch (RuntimeException e) {
            throw new Refused(Reason.ALTERED, "the state backup was altered: its header does not read ("
                    + (e instanceof DateTimeParseException ? "made" : e.getMessage()) + ")");
        }
    }
}
