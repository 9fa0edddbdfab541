package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import mesh.wire.StateBackupsView;
import org.junit.jupiter.api.Test;

/** StateBackupLinesTest: what mesh status says of the seat's state backups, or that the mesh cannot be rebuilt. */
class StateBackupLinesTest {

    static final Instant NOW = Instant.parse("2026-12-05T13:00:03Z");
    static final StateBackupsView.Entry NEWEST = new StateBackupsView.Entry("2026-12-05T10:00:03Z", "file:/mnt/usb/mesh.backup", 421_000);
    static final StateBackupsView.Entry OLDER = new StateBackupsView.Entry("2026-12-01T10:00:03Z", "file:/mnt/usb/old.backup", 1);

    @Test
    void theNewestIsSaidWithItsAgeAndPlace() {
        StateBackupsView v = new StateBackupsView(true, List.of(NEWEST, OLDER));
        assertEquals(Optional.of("state backup: newest made 2026-12-05 10:00:03 UTC, 3 h ago, at file:/mnt/usb/mesh.backup (412 KiB)"),
                StateBackupLines.newest(v, NOW));
        assertEquals(Optional.empty(), StateBackupLines.warning(v));
    }

    @Test
    void withoutARecoveryPassphraseTheMeshCannotBeRebuilt() {
        String w = StateBackupLines.warning(new StateBackupsView(false, List.of())).orElseThrow();
        assertTrue(w.startsWith("warning: the mesh cannot be rebuilt if the seat is lost: no recovery passphrase is set"), w);
        assertTrue(w.contains("'mesh seat passphrase'"), w);
        String stillNoPassphrase = StateBackupLines.warning(new StateBackupsView(false, List.of(NEWEST))).orElseThrow();
        assertTrue(stillNoPassphrase.contains("no recovery passphrase is set"), stillNoPassphrase);
    }

    @Test
    void withoutAStateBackupTheMeshCannotBeRebuilt() {
        for (Boolean set : new Boolean[] {true, null}) {
            StateBackupsView v = new StateBackupsView(set, List.of());
            String w = StateBackupLines.warning(v).orElseThrow();
            assertTrue(w.contains("cannot be rebuilt") && w.contains("no state backup has been made")
                    && w.contains("'mesh seat backup --to FILE'"), w);
            assertEquals(Optional.empty(), StateBackupLines.newest(v, NOW));
        }
    }

    @Test
    void anOlderControllerGetsNothingSaid() {
        assertEquals(Optional.empty(), StateBackupLines.warning(null));
        assertEquals(Optional.empty(), StateBackupLines.newest(null, NOW));
    }
}
