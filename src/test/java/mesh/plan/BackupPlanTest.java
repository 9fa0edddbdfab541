package mesh.plan;

import mesh.model.BackupStep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mesh.model.BackupVolume;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** BackupPlanTest: every step of a backup, forward and failed, fenced and live; the module never left stopped. */
class BackupPlanTest {

    static final List<BackupVolume> VOLUMES = List.of(new BackupVolume("data", "container"));
    static final Operation.Outcome OK = new Operation.Done();
    static final Operation.Outcome COPIED = new BackupPlan.Copied("sha256:" + "a".repeat(64), 100, 3, 40, VOLUMES);

    static Backup fenced() {
        return Backup.start(7, "db", "n2", "http://10.77.0.13:5000", "mesh-backup/db", 12, false, VOLUMES);
    }

    static Backup live() {
        return Backup.start(8, "db", "n2", "http://10.77.0.13:5000", "mesh-backup/db", 13, true, VOLUMES);
    }

    static Operation.Outcome fail(String why) {
        return new Operation.Failed(Operation.Reason.FAILED, why);
    }

    /** Each row: the backup, the outcomes of its steps in turn, and the steps it goes through to its end. */
    static Stream<Arguments> paths() {
        return Stream.of(
                Arguments.of("fenced, all well", fenced(), List.of(OK, COPIED, OK, OK), List.of("fence", "copy", "unfence", "retain", "done")),
                Arguments.of("fenced, the fence fails", fenced(), List.of(fail("agent down"), OK), List.of("fence", "unfence", "failed")),
                Arguments.of("fenced, the copy fails", fenced(), List.of(OK, fail("registry down"), OK), List.of("fence", "copy", "unfence", "failed")),
                Arguments.of("fenced, the unfence fails twice", fenced(), List.of(OK, COPIED, fail("x"), fail("x"), OK, OK),
                        List.of("fence", "copy", "unfence", "unfence", "unfence", "retain", "done")),
                Arguments.of("live, all well", live(), List.of(COPIED, OK), List.of("copy", "retain", "done")),
                Arguments.of("live, the command fails", live(), List.of(fail("the backup command of db.server exited 1")), List.of("copy", "failed")),
                Arguments.of("retention fails: still done", live(), List.of(COPIED, fail("no deletes")), List.of("copy", "retain", "done")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void eachPathEndsAsItShould(String name, Backup start, List<Operation.Outcome> outcomes, List<String> steps) {
        List<String> seen = new ArrayList<>();
        Backup b = start;
        for (Operation.Outcome o : outcomes) {
            seen.add(b.step().word());
            b = BackupPlan.after(b, o);
        }
        seen.add(b.step().word());
        assertEquals(steps, seen, name);
        assertTrue(b.step().ended(), name + " ends");
        assertTrue(BackupPlan.moduleMayRun(b), name + ": the module may run once the backup ended");
    }

    @Test
    void aCopyRecordsTheArtifactAndAFailureKeepsItsCause() {
        Backup b = BackupPlan.after(BackupPlan.after(fenced(), OK), COPIED);
        assertEquals("sha256:" + "a".repeat(64), b.manifest());
        assertEquals(40, b.sent());
        Backup failed = BackupPlan.after(BackupPlan.after(fenced(), OK), fail("registry down"));
        assertEquals("copy: registry down", failed.error());
        assertEquals(BackupStep.FAILED, BackupPlan.after(failed, OK).step());
        assertEquals("copy: registry down", BackupPlan.after(failed, OK).error());
    }

    @Test
    void theModuleMayNotRunBetweenTheFenceAndTheUnfenceOnly() {
        Backup atCopy = BackupPlan.after(fenced(), OK);
        assertFalse(BackupPlan.moduleMayRun(atCopy));
        Backup atUnfence = BackupPlan.after(atCopy, COPIED);
        assertFalse(BackupPlan.moduleMayRun(atUnfence));
        Backup stuck = BackupPlan.after(atUnfence, fail("agent away"));
        assertEquals(BackupStep.UNFENCE, stuck.step(), "a failed unfence is tried again, never given up");
        assertTrue(stuck.problem().contains("the module stays stopped"));
        assertTrue(BackupPlan.moduleMayRun(live()));
        assertNull(BackupPlan.after(stuck, OK).problem());
    }

    @Test
    void anEndedBackupStaysAsItIs() {
        Backup done = fenced().at(BackupStep.DONE);
        assertEquals(done, BackupPlan.after(done, fail("late")));
    }
}
