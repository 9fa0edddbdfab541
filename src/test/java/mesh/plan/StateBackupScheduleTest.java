package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** StateBackupScheduleTest: when the controller makes a state backup on its own, and which of its files go. */
class StateBackupScheduleTest {

    static final Instant NEWEST = Instant.parse("2026-12-05T10:00:03Z");

    @Test
    void oneIsDueWhenNoneWasMade() {
        assertEquals(Optional.of("no state backup was made yet"), StateBackupSchedule.due(null, null, NEWEST));
    }

    @Test
    void oneIsDueADayAfterTheNewestAndNotBefore() {
        assertEquals(Optional.empty(), StateBackupSchedule.due(NEWEST, null, NEWEST.plusSeconds(24 * 3600 - 1)));
        String why = StateBackupSchedule.due(NEWEST, null, NEWEST.plusSeconds(24 * 3600)).orElseThrow();
        assertTrue(why.contains("made at 2026-12-05T10:00:03Z, 24 h or more ago"), why);
    }

    @Test
    void oneIsDueAfterAKeyChangeMadeAfterTheNewestOnly() {
        var before = new StateBackupSchedule.KeyChange(NEWEST.minusSeconds(1), "token create");
        assertEquals(Optional.empty(), StateBackupSchedule.due(NEWEST, before, NEWEST.plusSeconds(60)));
        var after = new StateBackupSchedule.KeyChange(NEWEST.plusSeconds(30), "secret rotate-key");
        assertEquals(Optional.of("'secret rotate-key' at 2026-12-05T10:00:33Z changed keys after the newest state backup"),
                StateBackupSchedule.due(NEWEST, after, NEWEST.plusSeconds(60)));
    }

    @Test
    void theKeyVerbsAreTheRotationsAndTokenChanges() {
        assertEquals(List.of("ca rotate-certs", "secret rotate-key", "token create", "token revoke"), StateBackupSchedule.KEY_VERBS);
    }

    @Test
    void onlyTheControllersOwnFilesPastTheNewestNGo() {
        String a = StateBackupSchedule.fileName(NEWEST);
        assertEquals("mesh-state-20261205T100003Z.backup", a);
        String b = StateBackupSchedule.fileName(NEWEST.plusSeconds(86400));
        String c = StateBackupSchedule.fileName(NEWEST.plusSeconds(2 * 86400));
        List<String> names = List.of(b, "operator-copy.backup", a, c, "mesh-state-x.backup", a + ".tmp");
        assertEquals(List.of(a), StateBackupSchedule.pruned(names, 2));
        assertEquals(List.of(), StateBackupSchedule.pruned(names, 3));
        assertEquals(List.of(c, b, a), StateBackupSchedule.pruned(names, 0));
    }

    @Test
    void theScheduleSendsItsCopyWhereTheOperatorsNewestOffSeatBackupWent() {
        String n3 = "node:n3 10.77.0.13:5000/mesh-state:mesh-state-20261205T100003Z";
        String n4 = "node:n4 10.77.0.14:5000/mesh-state:mesh-state-20261204T100003Z";
        assertEquals(Optional.of(n3), StateBackupSchedule.offSeat(List.of("file:/var/lib/mesh/state-backups/a.backup", n3, n4)),
                "the newest off-seat place, past the seat's own files");
        assertEquals("n3", StateBackupSchedule.offSeatNode(n3));
        assertEquals("http://10.77.0.13:5000", Rebuild.source(n3).registry(), "the registry it names");
        assertEquals(Optional.empty(), StateBackupSchedule.offSeat(List.of("file:/mnt/usb/mesh.backup", "file:/x.backup")),
                "none pushed to a node: the scheduled one stays on the seat alone");
        assertEquals(Optional.empty(), StateBackupSchedule.offSeat(List.of()));
    }
}
