package mesh.plan;

import mesh.model.TakeStep;

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

/**
 * TakePlanRestoreTest: a restore is a take whose data comes from a backup, decided by the take's own plan. Every path of
 * one, with a source that answers, one that does not, and none; never two copies; the rollbacks are the take's.
 */
class TakePlanRestoreTest {

    static final List<Take.Volume> VOLUMES = List.of(Take.Volume.of(new BackupVolume("dump", "container", "sha256:" + "b".repeat(64), 10L, 1L)));
    static final List<Take.Volume> RESTORED_VOLUMES = List.of(Take.Volume.of(new BackupVolume("dump", "container", "sha256:" + "c".repeat(64), 10L, 1L)));
    static final Operation.Outcome OK = new Operation.Done();
    static final Operation.Outcome ANSWERS = new TakePlan.SourceAnswers(true);
    static final Operation.Outcome SILENT = new TakePlan.SourceAnswers(false);
    static final Operation.Outcome RESTORED = new TakePlan.Restored(RESTORED_VOLUMES);
    static final Operation.Outcome TARGET_SILENT = new TakePlan.Left("n3 does not answer");

    static Take from(String node) {
        return Take.restore(3, "db", 7, node, "n3", 21, VOLUMES, null);
    }

    /** A restore away from {@code node}, which the operator said is down ({@code mesh restore --down NODE}). */
    static Take fromDown(String node) {
        return Take.restore(3, "db", 7, node, "n3", 21, VOLUMES, node);
    }

    static Operation.Outcome fail(String why) {
        return new Operation.Failed(Operation.Reason.FAILED, why);
    }

    static Stream<Arguments> paths() {
        return Stream.of(
                Arguments.of("source answers", from("n2"), List.of(ANSWERS, OK, RESTORED, OK, OK, OK, OK),
                        List.of("preflight", "fence", "restore", "start", "switch", "push", "old-copy", "done")),
                Arguments.of("source lost", fromDown("n2"), List.of(SILENT, OK, RESTORED, OK, OK, OK, OK),
                        List.of("preflight", "lose", "restore", "start", "switch", "push", "old-copy", "done")),
                Arguments.of("source silent, not said down: nothing changed", from("n2"), List.of(SILENT),
                        List.of("preflight", "failed")),
                Arguments.of("said down but answers: fenced, as any source that answers", fromDown("n2"),
                        List.of(ANSWERS, OK, RESTORED, OK, OK, OK, OK),
                        List.of("preflight", "fence", "restore", "start", "switch", "push", "old-copy", "done")),
                Arguments.of("runs nowhere", from(null), List.of(SILENT, RESTORED, OK, OK, OK),
                        List.of("preflight", "restore", "start", "switch", "push", "done")),
                Arguments.of("preflight fails: nothing changed", from("n2"), List.of(fail("n3 lacks an image")),
                        List.of("preflight", "failed")),
                Arguments.of("a corrupt blob: unfence first, then delete the copy", from("n2"), List.of(ANSWERS, OK, fail("file x differs"), OK, OK),
                        List.of("preflight", "fence", "restore", "unfence", "delete-copy", "rolled-back")),
                Arguments.of("lost, the restore fails: the lost mark goes", fromDown("n2"), List.of(SILENT, OK, fail("registry down"), OK, OK),
                        List.of("preflight", "lose", "restore", "unfence", "delete-copy", "rolled-back")),
                Arguments.of("runs nowhere, the restore fails: its copy is deleted", from(null), List.of(SILENT, fail("registry down"), OK, OK),
                        List.of("preflight", "restore", "unfence", "delete-copy", "rolled-back")),
                Arguments.of("the fence fails: nothing was written, nothing to delete", from("n2"), List.of(ANSWERS, fail("n2 went away"), OK),
                        List.of("preflight", "fence", "unfence", "rolled-back")),
                Arguments.of("the start fails: the target stops first", from("n2"), List.of(ANSWERS, OK, RESTORED, fail("not healthy"), OK, OK, OK),
                        List.of("preflight", "fence", "restore", "start", "stop-target", "delete-copy", "unfence", "rolled-back")),
                Arguments.of("runs nowhere, the start fails: stopped, deleted, its fence lifted", from(null),
                        List.of(SILENT, RESTORED, fail("not healthy"), OK, OK, OK),
                        List.of("preflight", "restore", "start", "stop-target", "delete-copy", "unfence", "rolled-back")),
                Arguments.of("the target goes silent at its delete: the copy is left, the module runs on its source", from("n2"),
                        List.of(ANSWERS, OK, fail("n3 went away"), OK, TARGET_SILENT),
                        List.of("preflight", "fence", "restore", "unfence", "delete-copy", "rolled-back")),
                Arguments.of("a push that fails is tried again", from("n2"), List.of(ANSWERS, OK, RESTORED, OK, OK, fail("busy"), OK, OK),
                        List.of("preflight", "fence", "restore", "start", "switch", "push", "push", "old-copy", "done")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void eachPathEndsAsItShouldAndNeverRunsTwoCopies(String name, Take start, List<Operation.Outcome> outcomes, List<String> steps) {
        List<String> seen = new ArrayList<>();
        Take r = start;
        for (Operation.Outcome o : outcomes) {
            seen.add(r.step().word());
            assertFalse(TakePlan.sourceMayRun(r) && TakePlan.targetMayRun(r), name + ": two copies may run at " + r.step());
            r = TakePlan.PLAN.after(r, o);
            assertTrue(r.restoring(), name + ": still a restore at " + r.step());
        }
        seen.add(r.step().word());
        assertEquals(steps, seen, name);
        assertTrue(r.step().ended(), name);
    }

    @Test
    void aLostSourceIsMarkedAndARollbackForgetsTheMark() {
        Take lost = TakePlan.after(TakePlan.after(fromDown("n2"), SILENT), OK);
        assertTrue(lost.lost());
        Take back = TakePlan.after(TakePlan.after(lost, fail("registry down")), OK);
        assertFalse(back.lost(), "the node's copy is the module's again");
        assertEquals("restore: registry down", back.error());
    }

    @Test
    void aSilentSourceNotSaidDownFailsTheRestoreNamingTheCommandThatSaysSo() {
        Take r = TakePlan.after(from("n2"), SILENT);
        assertEquals(TakeStep.FAILED, r.step());
        assertFalse(r.lost(), "nothing marked");
        assertEquals("preflight: node n2 does not answer: it may be down, or only cut off from the controller with db still"
                + " running there, and a restore now would run db twice. If n2 is down (powered off, crashed, its disk lost),"
                + " say so: 'mesh restore db 7 --to n3 --down n2' marks its copy lost, fenced there the moment its agent"
                + " answers again; nothing was changed", r.error());
        Take otherDown = Take.restore(3, "db", 7, "n2", "n3", 21, VOLUMES, "n4");
        assertFalse(otherDown.sourceSaidDown(), "another node said down says nothing of n2");
        assertEquals(TakeStep.FAILED, TakePlan.after(otherDown, SILENT).step());
    }

    @Test
    void theRestoredDigestsAreRecordedAndTheViewSaysThem() {
        Take r = TakePlan.after(TakePlan.after(TakePlan.after(from("n2"), ANSWERS), OK), RESTORED);
        assertEquals(TakeStep.START, r.step());
        assertEquals(List.of("sha256:" + "c".repeat(64)), r.volumes().stream().map(v -> v.asBackup().digest()).toList());
        assertEquals(21, r.epoch());
        assertEquals(7, r.fromBackup().backup());
        assertEquals(3, r.fromBackup().restore());
    }

    @Test
    void aTakeFromANodeNeverStandsAtARestoresSteps() {
        Take take = Take.start("db", "n2", "n3", 21, false);
        assertFalse(take.restoring());
        assertFalse(take.lost());
        assertNull(take.fromBackup());
        Take at = take;
        List<TakeStep> seen = new ArrayList<>();
        while (!at.step().ended()) {
            seen.add(at.step());
            at = TakePlan.after(at, at.step() == TakeStep.PREFLIGHT ? new TakePlan.Preflighted(List.of()) : OK);
        }
        assertFalse(seen.contains(TakeStep.LOSE) || seen.contains(TakeStep.RESTORE), seen.toString());
    }

    @Test
    void aDryRunSaysWhatHappensToASilentSource() {
        List<String> steps = TakeWords.restoreAhead(fromDown("n2"), false);
        assertTrue(steps.get(0).startsWith("lose: n2 does not answer and was said down (--down)"), steps.toString());
        List<String> refused = TakeWords.restoreAhead(from("n2"), false);
        assertEquals(1, refused.size(), refused.toString());
        assertTrue(refused.get(0).startsWith("refused: preflight: node n2 does not answer"), refused.toString());
        assertTrue(steps.get(1).startsWith("restore: n3 writes backup 7 (dump)"), steps.toString());
        assertTrue(TakeWords.restoreAhead(from("n2"), true).get(0).startsWith("fence: stop db on n2"));
        assertEquals(List.of("restore", "start", "switch", "push"), TakeWords.restoreAhead(from(null), false).stream()
                .map(l -> l.substring(0, l.indexOf(':'))).toList());
    }
}
