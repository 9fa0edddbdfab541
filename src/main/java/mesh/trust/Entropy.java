package mesh.trust;

import java.security.SecureRandom;

/**
 * The program's one source of secure random bytes (keys, serial numbers, tokens, nonces), made on first use.
 *
 * <p>Made when the program runs, never while it is built: the native executable's builder keeps what static initializers
 * made, and a random source kept that way would start from the same seed in every copy of the executable (the builder
 * refuses one: "Detected an instance of Random/SplittableRandom class in the image heap"). A static field holding a
 * {@code new SecureRandom()} anywhere else is refused by a test.
 */
public final class Entropy {

    private static volatile SecureRandom source;

    private Entropy() {
    }

    /** The source, made the first time it is asked for; {@link SecureRandom} is safe to share between threads. */
    public static SecureRandom source() {
        SecureRandom s = source;
        if (s == null) {
            synchronized (Entropy.class) {
                s = source;
                if (s == null) {
                    s = new SecureRandom();
                    source = s;
                }
            }
        }
        return s;
    }

    /** {@code n} fresh random bytes as {@code 2n} hex digits: a token, a ticket, a password. */
    public static String hex(int n) {
        return java.util.HexFormat.of().formatHex(bytes(n));
    }

    /** {@code n} fresh random bytes. */
    public static byte[] bytes(int n) {
        byte[] b = new byte[n];
        source().nextBytes(b);
        return b;
    }
}
