package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import mesh.model.BackupStep;
import mesh.model.BackupVolume;
import mesh.model.TakeStep;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * OperationPlansTest: every step of every operation has a deadline (a rollback's steps too), and a step that passes
 * it is decided as any failure of that step: a rollback, or the same step tried again and then let go.
 */
class OperationPlansTest {

    static final List<BackupVolume> VOLUMES = List.of(new BackupVolume("data", "container"));

    @ParameterizedTest
    @EnumSource(TakeStep.class)
    void everyStepOfATakeHasADeadline(TakeStep step) {
        Duration d = TakePlan.PLAN.deadline(TakePlanTest.at(step));
        assertTrue(d.compareTo(Duration.ZERO) > 0 && d.compareTo(Duration.ofDays(1)) <= 0, step + ": " + d);
        if (step.rollingBack()) {
            assertTrue(d.compareTo(Duration.ofMinutes(30)) <= 0, "a rollback's step is bounded in minutes: " + step + " " + d);
        }
    }

    @ParameterizedTest
    @EnumSource(TakeStep.class)
    void everyStepOfARestoreHasADeadline(TakeStep step) {
        Duration d = TakePlan.PLAN.deadline(Take.restore(1, "web", 2, "n1", "n2", 7,
                VOLUMES.stream().map(Take.Volume::of).toList(), null).at(step));
        assertTrue(d.compareTo(Duration.ZERO) > 0 && d.compareTo(Duration.ofDays(1)) <= 0, step + ": " + d);
    }

    @ParameterizedTest
    @EnumSource(BackupStep.class)
    void everyStepOfABackupHasADeadline(BackupStep step) {
        Duration d = BackupPlan.PLAN.deadline(Backup.start(1, "web", "n1", "http://r", "mesh-backup/web", 7, false, VOLUMES).at(step));
        assertTrue(d.compareTo(Duration.ZERO) > 0 && d.compareTo(Duration.ofDays(1)) <= 0, step + ": " + d);
    }

    @Test
    void aDeleteCopyPastItsDeadlineBeforeTheStartIsTriedAgainThenEndsRolledBackWithTheCopyLeft() {
        Take deleting = TakePlanTest.rollingBack(TakeStep.COPY, TakeStep.DELETE_COPY);
        Take late = TakePlan.PLAN.after(deleting, new Failed(Reason.TIMED_OUT, "it did not end within its deadline of 5 min"));
        assertEquals(TakeStep.DELETE_COPY, late.step(), "tried again");
        assertEquals("delete-copy: it did not end within its deadline of 5 min", TakePlan.PLAN.problem(late));
        Take ended = TakePlan.PLAN.gaveUp(late);
        assertEquals(TakeStep.ROLLED_BACK, ended.step(), "after the tries the take ends, the module on its source");
    }

    @Test
    void aStartPastItsDeadlineRollsBackStoppingTheTargetFirst() {
        Take late = TakePlan.PLAN.after(TakePlanTest.at(TakeStep.START), new Failed(Reason.TIMED_OUT, "it did not end within its deadline of 25 min"));
        assertEquals(TakeStep.STOP_TARGET, late.step());
        assertEquals("start: it did not end within its deadline of 25 min", late.error());
    }

    @Test
    void aFailureWithoutWordsStillSaysSomething() {
        Failed f = new Failed(null, null);
        assertEquals(Reason.FAILED, f.reason());
        assertEquals("it failed without saying why", f.words());
    }
}
