package mesh.cli;

import mesh.model.TakeStep;
import mesh.model.OperationState;
import mesh.model.BackupStep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import mesh.wire.BackupStatus;
import mesh.wire.BackupView;
import mesh.wire.RestoreView;
import org.junit.jupiter.api.Test;

/** BackupLinesTest: the steps a poll missed are said in order; mesh status's lines for a module's backups. */
class BackupLinesTest {

    static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

    static RestoreView restore(String step, String state, boolean lost, String from) {
        return new RestoreView(1, "db", 4, from, "n3", 9, lost, TakeStep.of(step), OperationState.of(state), List.of(), null, null, null, null);
    }

    @Test
    void aRestoreSaysEveryStepItPassedBetweenTwoPolls() {
        assertEquals(List.of("preflight"), RestoreCommand.stepsSince(restore("preflight", "running", false, "n2"), null));
        assertEquals(List.of("lose", "restore"), RestoreCommand.stepsSince(restore("restore", "running", true, "n2"), TakeStep.of("preflight")));
        assertEquals(List.of("fence", "restore", "start"), RestoreCommand.stepsSince(restore("start", "running", false, "n2"), TakeStep.of("preflight")));
        assertEquals(List.of("switch", "push", "old-copy"), RestoreCommand.stepsSince(restore("done", "done", true, "n2"), TakeStep.of("start")));
        assertEquals(List.of("restore", "start", "switch", "push"), RestoreCommand.stepsSince(restore("done", "done", false, null), TakeStep.of("preflight")));
        assertEquals(List.of("unfence"), RestoreCommand.stepsSince(restore("unfence", "running", false, "n2"), TakeStep.of("restore")));
        assertEquals(List.of(), RestoreCommand.stepsSince(restore("rolled-back", "rolled-back", false, "n2"), TakeStep.of("delete-copy")));
    }

    static BackupView backup(String step, String state, boolean live) {
        return new BackupView(4, "db", "n2", "operator", BackupStep.of(step), OperationState.of(state), live, "http://r:5000", "mesh-backup/db", "backup-4", null,
                0, 0, 0, List.of(), null, null, null, null, null, null, null, null);
    }

    @Test
    void aBackupSaysEveryStepItPassed() {
        assertEquals(List.of("fence", "copy"), BackupCommand.stepsSince(backup("copy", "running", false), null));
        assertEquals(List.of("unfence", "retain"), BackupCommand.stepsSince(backup("done", "done", false), BackupStep.of("copy")));
        assertEquals(List.of("copy", "retain"), BackupCommand.stepsSince(backup("done", "done", true), null));
        assertEquals(List.of(), BackupCommand.stepsSince(backup("failed", "failed", true), BackupStep.of("copy")));
    }

    @Test
    void statusSaysTheLastBackupTheScheduleAndASameDiskWarning() {
        BackupStatus good = new BackupStatus("db", "n2", 86400L, 7, 4L, OperationState.DONE, "2026-12-02T07:00:00Z", null, 4L,
                "2026-12-02T07:00:00Z", "2026-12-03T07:00:00Z", "http://10.77.0.11:5000", "n1", false);
        assertEquals(List.of("backup db (n2): last 4 done 3 h ago; every 1d, keep 7, next in 21h"), BackupLines.status(good, NOW));
        BackupStatus same = new BackupStatus("web", "n1", null, 7, 5L, OperationState.FAILED, "2026-12-02T09:59:00Z", "copy: the registry does not"
                + " answer", 3L, "2026-12-01T10:00:00Z", null, "http://10.77.0.11:5000", "n1", true);
        List<String> lines = BackupLines.status(same, NOW);
        assertEquals("backup web (n1): last 5 failed 60 s ago (copy: the registry does not answer); last good 3 24 h ago; no schedule",
                lines.get(0));
        assertTrue(lines.get(1).startsWith("warning: backups of web land on the registry of n1, the node it runs on: a backup on the"
                + " same disk is not a backup"), lines.get(1));
    }
}
