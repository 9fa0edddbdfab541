package mesh.trust;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * SecretSeal seals and opens secret values with AES-256-GCM and hashes them with HMAC-SHA256, both
 * the JDK's own ({@code javax.crypto}, provider SunJCE: no library, no registered provider, the same
 * in JVM and native mode). A sealed value is the 12-byte random nonce followed by the ciphertext and
 * its 16-byte tag; {@code aad} (what the value belongs to, e.g. {@code web/db-password/3}) is
 * authenticated with it, so a sealed value moved to another row or record does not open.
 */
public final class SecretSeal {

    public static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private SecretSeal() {
    }

    /** A new random 256-bit key. */
    public static byte[] newKey() {
        return Entropy.bytes(KEY_BYTES);
    }

    public static byte[] seal(byte[] key, String value, String aad) {
        return sealBytes(key, value.getBytes(StandardCharsets.UTF_8), aad.getBytes(StandardCharsets.UTF_8));
    }

    /** {@link #seal} for bytes: the nonce, then {@code plain} sealed with {@code aad} authenticated beside it. */
    public static byte[] sealBytes(byte[] key, byte[] plain, byte[] aad) {
        try {
            byte[] nonce = Entropy.bytes(NONCE_BYTES);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(aad);
            byte[] sealed = c.doFinal(plain);
            byte[] out = Arrays.copyOf(nonce, NONCE_BYTES + sealed.length);
            System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK cannot seal with AES-256-GCM: " + e.getMessage(), e);
        }
    }

    /** The value {@link #seal} sealed; a {@link Unopened} when the key, the aad or the bytes are not the ones sealed. */
    public static String open(byte[] key, byte[] sealed, String aad) {
        return new String(openBytes(key, sealed, aad.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    /** The bytes {@link #sealBytes} sealed; a {@link Unopened} when the key, the aad or the bytes are not the ones sealed. */
    public static byte[] openBytes(byte[] key, byte[] sealed, byte[] aad) {
        if (sealed == null || sealed.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new Unopened("too short to be a sealed value");
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
                    new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            c.updateAAD(aad);
            return c.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new Unopened("it was sealed with another key, or for another secret");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK cannot open AES-256-GCM: " + e.getMessage(), e);
        }
    }

    /** HMAC-SHA256 of {@code text} under {@code key}, 64 hex digits. */
    public static String hmac(byte[] key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no HmacSHA256: " + e.getMessage(), e);
        }
    }

    /** Unopened is a sealed value that does not open with the key given. */
    public static final class Unopened extends RuntimeException {
        public Unopened(String why) {
            super(why);
        }
    }
}
