package mesh.install;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import mesh.trust.Entropy;
import mesh.trust.RecoveryKey;
import mesh.trust.StateSeal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** StateBackupsTest: a seat's state backup made and opened for a rebuild, refused where the machine has a mesh. */
class StateBackupsTest {

    private static final char[] PASSPHRASE = "the operator's own passphrase".toCharArray();
    private static final RecoveryKey KEY = RecoveryKey.derive(PASSPHRASE, new RecoveryKey.Kdf(Entropy.bytes(16), 64, 1, 1));

    @Test
    void aBackupOpensIntoTheSeatsFilesAndTheStoresRowsOnAFreshMachineOnly(@TempDir Path dir) throws Exception {
        Path old = dir.resolve("old");
        for (String file : SeatState.FILES) {
            Files.createDirectories(old.resolve(file).getParent());
            Files.writeString(old.resolve(file), "secret of " + file);
        }
        byte[] artifact = StateBackups.make(old, Map.of("store/schema", "15".getBytes(StandardCharsets.US_ASCII)), KEY,
                "sha256:ab", Instant.parse("2026-12-06T02:00:00Z"));
        assertFalse(new String(artifact, StandardCharsets.ISO_8859_1).contains("secret of"));

        StateBackups.Opened opened = StateBackups.open(artifact, PASSPHRASE, dir.resolve("fresh"));
        assertEquals("sha256:ab", opened.header().mesh());
        assertArrayEquals("secret of tls/ca.key".getBytes(StandardCharsets.UTF_8), opened.seatFiles().get("keys/tls/ca.key"));
        assertEquals("15", new String(opened.storeRows().get("store/schema"), StandardCharsets.US_ASCII));
        assertFalse(Files.exists(dir.resolve("fresh")), "opening writes nothing");

        InstallFailure here = assertThrows(InstallFailure.class, () -> StateBackups.open(artifact, PASSPHRASE, old));
        assertTrue(here.getMessage().contains("already has a mesh"), here.getMessage());
        StateSeal.Refused wrong = assertThrows(StateSeal.Refused.class,
                () -> StateBackups.open(artifact, "another passphrase!".toCharArray(), dir.resolve("fresh")));
        assertEquals(StateSeal.Reason.WRONG_PASSPHRASE, wrong.reason());
    }
}
