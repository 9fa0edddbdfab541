package mesh.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretSealTest {

    @Test
    void aSealedValueOpensWithItsKeyAndAadOnly() {
        byte[] key = SecretSeal.newKey();
        byte[] sealed = SecretSeal.seal(key, "hunter2", "web/db-password/1");
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains("hunter2"));
        assertEquals("hunter2", SecretSeal.open(key, sealed, "web/db-password/1"));
        assertThrows(SecretSeal.Unopened.class, () -> SecretSeal.open(key, sealed, "web/db-password/2"));
        assertThrows(SecretSeal.Unopened.class, () -> SecretSeal.open(SecretSeal.newKey(), sealed, "web/db-password/1"));
        assertThrows(SecretSeal.Unopened.class, () -> SecretSeal.open(key, new byte[5], "web/db-password/1"));
        assertNotEquals(new String(sealed, StandardCharsets.ISO_8859_1),
                new String(SecretSeal.seal(key, "hunter2", "web/db-password/1"), StandardCharsets.ISO_8859_1), "a fresh nonce each time");
    }

    @Test
    void theKeyFileIsWrittenPrivateAndReadBackAndARotationKeepsTheDigestKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("install/secrets.key");
        SecretKeys keys = SecretKeys.fresh();
        keys.write(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        SecretKeys read = SecretKeys.read(file);
        assertEquals(keys.currentId(), read.currentId());
        assertArrayEquals(keys.current(), read.current());
        assertEquals(keys.hmac("web", "db", "v"), read.hmac("web", "db", "v"));

        SecretKeys rotated = read.withNewSealKey();
        assertEquals(2, rotated.seal().size());
        assertNotEquals(read.currentId(), rotated.currentId());
        assertEquals(read.hmac("web", "db", "v"), rotated.hmac("web", "db", "v"), "the digest key is kept: nothing is replaced");
        assertEquals(1, rotated.currentOnly().seal().size());
        assertNotEquals(keys.hmac("web", "db", "v"), keys.hmac("app", "db", "v"), "the hash is bound to its module");
    }

    @Test
    void aBrokenKeyFileIsNamed(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("k"), "seal abc 12\n");
        Exception e = assertThrows(java.io.IOException.class, () -> SecretKeys.read(file));
        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
    }
}
