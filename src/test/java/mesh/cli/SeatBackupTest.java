package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SeatBackupTest: {@code mesh seat backup} refuses, writing nothing, where it cannot seal a whole seat. */
class SeatBackupTest {

    @Test
    void withoutARecoveryPassphraseNoBackupIsMade(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("state/install"));
        CliRun run = CliRun.of("seat", "backup", "--to", dir.resolve("out").toString(), "--state-dir", dir.resolve("state").toString());
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("no recovery passphrase is set on this seat") && run.err().contains("mesh seat passphrase"), run.err());
        assertFalse(Files.exists(dir.resolve("out")));
    }

    @Test
    void listOnAMachineThatIsNoSeatSaysSoAndAsksNoStore(@TempDir Path dir) {
        CliRun run = CliRun.of("seat", "backup", "list", "--state-dir", dir.toString());
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("this machine is no seat of a mesh") && run.err().contains("--state-dir"), run.err());
    }

    @Test
    void listShowsEachRecordedStateBackupInJson() {
        var rows = java.util.List.of(new mesh.store.StateBackupRecords.Row(java.time.Instant.parse("2026-12-05T10:00:03Z"),
                "file:/mnt/usb/b", 2048, "sha256:ab"));
        assertEquals(java.util.List.of(new SeatBackupListCommand.Entry("2026-12-05T10:00:03Z", "file:/mnt/usb/b", 2048, "sha256:ab")),
                SeatBackupListCommand.entries(rows));
    }

    @Test
    void theFileToWriteIsRequired() {
        CliRun run = CliRun.of("seat", "backup");
        assertEquals(2, run.exit());
        assertTrue(run.err().contains("--to"), run.err());
    }
}
