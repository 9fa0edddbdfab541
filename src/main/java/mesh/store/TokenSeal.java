package mesh.store;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * TokenSeal keeps the agent tokens in the store sealed (AES-256-GCM, the JDK's own: no library
 * needed), with a key that is not in the store: whoever reads the store (a backup, a dump, a
 * replica) does not get the tokens that command the nodes. The controller still needs the tokens
 * in clear to push until agents accept the controller's client certificate instead (docs/trust.md).
 *
 * <p>The key is derived (HMAC-SHA256 under a fixed label) from a secret of the controller's
 * settings: MESH_SECRETS_KEY when set, else the bootstrap operator token MESH_CONTROLLER_TOKEN,
 * which the store holds only as a hash a key cannot be derived from. Each node's name is the
 * cipher's associated data, so a sealed token copied onto another node's row does not open.
 */
public final class TokenSeal {

    /** How a sealed value begins; a value without it is a token stored in clear before V4 (sealed at start). */
    public static final String PREFIX = "sealed:v1:";
    private static final String LABEL = "mesh agent tokens v1";
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    private TokenSeal(byte[] key) {
        this.key = new SecretKeySpec(key, "AES");
    }

    /** The seal whose key is derived from {@code secret} (a setting of the controller). */
    public static TokenSeal fromSecret(String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return new TokenSeal(mac.doFinal(LABEL.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this Java runtime lacks HmacSHA256", e);
        }
    }

    public static boolean isSealed(String stored) {
        return stored != null && stored.startsWith(PREFIX);
    }

    public String seal(String node, String token) {
        try {
            byte[] nonce = new byte[NONCE];
            random.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(node.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(token.getBytes(StandardCharsets.UTF_8));
            byte[] all = new byte[NONCE + sealed.length];
            System.arraycopy(nonce, 0, all, 0, NONCE);
            System.arraycopy(sealed, 0, all, NONCE, sealed.length);
            return PREFIX + Base64.getEncoder().encodeToString(all);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this Java runtime lacks AES/GCM", e);
        }
    }

    /** Whether this seal opens {@code stored} for {@code node}. */
    public boolean opens(String node, String stored) {
        try {
            open(node, stored);
            return true;
        } catch (StoreFailure e) {
            return false;
        }
    }

    /**
     * The token sealed in {@code stored} for {@code node}; a value stored in clear is returned as it
     * is. A seal made with another key is a {@link StoreFailure} that says what to do.
     */
    public String open(String node, String stored) {
        if (!isSealed(stored)) {
            return stored;
        }
        try {
            byte[] all = Base64.getDecoder().decode(stored.substring(PREFIX.length()));
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, NONCE));
            cipher.updateAAD(node.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(all, NONCE, all.length - NONCE), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new StoreFailure("node " + node + "'s agent token in the store cannot be opened with this controller's"
                    + " key (was MESH_SECRETS_KEY or MESH_CONTROLLER_TOKEN changed?); give the node a new one with"
                    + " 'mesh node token " + node + " --rotate'", e);
        }
    }
}
