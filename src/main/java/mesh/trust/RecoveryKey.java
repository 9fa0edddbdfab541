package mesh.trust;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * RecoveryKey is the key state backups are sealed with, derived from the operator's recovery passphrase
 * with Argon2id (memory-hard: a stolen artifact costs each guess {@link Kdf#memoryKiB} of memory). The seat
 * keeps this derived key and its salt ({@code <state-dir>/install/recovery.key}, 0600), never the
 * passphrase: the controller seals a backup on a schedule with no one to type it, and a new machine opens
 * one by deriving the same key from the passphrase and the salt the artifact's header carries.
 */
public record RecoveryKey(Kdf kdf, byte[] key) {

    /** The shortest passphrase taken: a memory-hard derivation slows guessing, it does not make a short one safe. */
    public static final int MIN_CHARS = 12;

    /** The file's name in the seat's {@code install/} folder. */
    public static final String FILE = "recovery.key";

    private static final byte[] CHECK_TEXT = "mesh state backup passphrase check".getBytes(StandardCharsets.US_ASCII);

    /** Kdf is how a key was derived: Argon2id (version 1.3) with this salt, memory (KiB), passes and lanes. */
    public record Kdf(byte[] salt, int memoryKiB, int iterations, int parallelism) {

        /** The default cost: 64 MiB, 3 passes, 1 lane (RFC 9106's second recommended option), a fresh 16-byte salt. */
        public static Kdf fresh() {
            return new Kdf(Entropy.bytes(16), 65536, 3, 1);
        }

        /** What is wrong with these parameters as an artifact's header gives them; null when they can be used. */
        public String problem() {
            if (salt.length < 8 || salt.length > 64) {
                return "a salt of " + salt.length + " bytes";
            }
            if (memoryKiB < 8 * parallelism || memoryKiB > 4 * 1024 * 1024 || iterations < 1 || iterations > 64
                    || parallelism < 1 || parallelism > 16) {
                return "memory " + memoryKiB + " KiB, " + iterations + " passes, " + parallelism + " lanes";
            }
            return null;
        }
    }

    /** What is wrong with {@code passphrase} as a recovery passphrase; null when it is taken. */
    public static String problem(char[] passphrase) {
        if (passphrase.length < MIN_CHARS) {
            return "a recovery passphrase has at least " + MIN_CHARS + " characters";
        }
        return null;
    }

    /** The key {@code passphrase} derives under {@code kdf}. */
    public static RecoveryKey derive(char[] passphrase, Kdf kdf) {
        Argon2Parameters params = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withSalt(kdf.salt()).withMemoryAsKB(kdf.memoryKiB()).withIterations(kdf.iterations())
                .withParallelism(kdf.parallelism()).build();
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(params);
        byte[] key = new byte[SecretSeal.KEY_BYTES];
        generator.generateBytes(passphrase, key);
        return new RecoveryKey(kdf, key);
    }

    /**
     * A short value that tells a wrong passphrase from an altered artifact (AES-GCM alone cannot): HMAC-SHA256 of a
     * fixed text under the key, its first 8 bytes. It tells a guesser nothing the Argon2id cost does not already guard.
     */
    public String check() {
        return SecretSeal.hmac(key, new String(CHECK_TEXT, StandardCharsets.US_ASCII)).substring(0, 16);
    }

    /** Writes the key file, 0600, replacing it whole. */
    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        HexFormat hex = HexFormat.of();
        Files.writeString(tmp, "argon2id " + hex.formatHex(kdf.salt()) + " " + kdf.memoryKiB() + " " + kdf.iterations()
                + " " + kdf.parallelism() + "\nkey " + hex.formatHex(key) + "\n");
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The key file {@link #write} wrote; an IOException naming the line that is not one. */
    public static RecoveryKey read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        try {
            String[] k = lines.get(0).split(" ");
            String[] v = lines.get(1).split(" ");
            if (k.length != 5 || !k[0].equals("argon2id") || v.length != 2 || !v[0].equals("key")) {
                throw new IOException(file + " is not a recovery key file (argon2id SALT MEMORY PASSES LANES, key HEX)");
            }
            HexFormat hex = HexFormat.of();
            Kdf kdf = new Kdf(hex.parseHex(k[1]), Integer.parseInt(k[2]), Integer.parseInt(k[3]), Integer.parseInt(k[4]));
            byte[] key = hex.parseHex(v[1]);
            if (kdf.problem() != null || key.length != SecretSeal.KEY_BYTES) {
                throw new IOException(file + " holds no usable recovery key");
            }
            return new RecoveryKey(kdf, key);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new IOException(file + " is not a recovery key file: " + e.getMessage(), e);
        }
    }

    /** The passphrase a file holds: its content without the line end after it (a file written by {@code echo}). */
    public static char[] passphraseIn(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8);
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        char[] out = text.substring(0, end).toCharArray();
        Arrays.fill(content, (byte) 0);
        return out;
    }
}
