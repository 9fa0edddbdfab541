package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** BackupRetentionTest: which backups are kept, when the next one is due, and the same-disk rule. Time is a parameter. */
class BackupRetentionTest {

    static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

    static BackupRetention.Kept done(long id, int hoursAgo) {
        return new BackupRetention.Kept(id, true, NOW.minus(Duration.ofHours(hoursAgo)));
    }

    static BackupRetention.Kept failed(long id, int hoursAgo) {
        return new BackupRetention.Kept(id, false, true, NOW.minus(Duration.ofHours(hoursAgo)));
    }

    static BackupRetention.Kept running(long id, int hoursAgo) {
        return new BackupRetention.Kept(id, false, false, NOW.minus(Duration.ofHours(hoursAgo)));
    }

    @Test
    void theNewestKeepDoneBackupsStayAndFailedOnesCountForNothing() {
        List<BackupRetention.Kept> all = List.of(done(1, 50), done(2, 40), failed(3, 30), done(4, 20), done(5, 10), failed(6, 1));
        assertEquals(List.of(1L, 2L, 3L), BackupRetention.expired(all, 2), "the failure before the oldest kept goes too");
        assertEquals(List.of(1L, 2L, 3L, 4L), BackupRetention.expired(all, 1));
        assertEquals(List.of(), BackupRetention.expired(all, 4), "fewer done than keep: every failure stays too");
        assertEquals(List.of(1L, 2L, 3L, 4L), BackupRetention.expired(all, 0), "keep 0 still keeps the newest");
        assertEquals(List.of(), BackupRetention.expired(List.of(done(1, 3), done(2, 2), running(3, 1)), 2),
                "a running backup is neither kept nor removed");
        assertEquals(List.of(1L), BackupRetention.expired(List.of(done(1, 3), done(2, 2), done(3, 1), running(4, 0)), 2));
    }

    static BackupRetention.Schedule schedule(String module, Integer everyHours, boolean runs, boolean running, Integer lastHoursAgo) {
        return new BackupRetention.Schedule(module, everyHours == null ? null : Duration.ofHours(everyHours), runs, running,
                lastHoursAgo == null ? null : NOW.minus(Duration.ofHours(lastHoursAgo)));
    }

    @Test
    void aBackupIsDueOnlyForAScheduledRunningModuleWhosePeriodPassed() {
        List<BackupRetention.Schedule> s = List.of(
                schedule("never", null, true, false, null),
                schedule("first", 24, true, false, null),
                schedule("passed", 24, true, false, 24),
                schedule("recent", 24, true, false, 23),
                schedule("stopped", 24, false, false, 48),
                schedule("underway", 24, true, true, 48));
        assertEquals(List.of("first", "passed"), BackupRetention.due(s, NOW));
    }

    @Test
    void theNextIsDueAPeriodAfterTheLastOrNowWithoutOne() {
        assertEquals(NOW.plus(Duration.ofHours(20)), BackupRetention.next(Duration.ofHours(24), NOW.minus(Duration.ofHours(4)), NOW));
        assertEquals(NOW, BackupRetention.next(Duration.ofHours(24), null, NOW));
        assertNull(BackupRetention.next(null, NOW, NOW));
    }

    @Test
    void aRegistryOnTheModulesOwnNodeIsTheSameDisk() {
        assertTrue(BackupRetention.sameDisk("n2", "n2"));
        assertFalse(BackupRetention.sameDisk("n2", "n1"));
        assertFalse(BackupRetention.sameDisk(null, "n1"));
        assertFalse(BackupRetention.sameDisk("n2", null));
    }
}
