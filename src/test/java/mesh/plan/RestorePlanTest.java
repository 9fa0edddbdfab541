package mesh.plan;

import mesh.model.TakeStep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mesh.model.BackupVolume;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** RestorePlanTest: every path of a restore, with a source that answers, one that does not, and none; never two copies. */
class RestorePlanTest {

    static final List<BackupVolume> VOLUMES = List.of(new BackupVolume("dump", "container", "sha256:" + "b".repeat(64), 10L, 1L));
    static final Operation.Outcome OK = new Operation.Done();
    static final Operation.Outcome ANSWERS = new RestorePlan.Preflighted(true);
    static final Operation.Outcome SILENT = new RestorePlan.Preflighted(false);
    static final Operation.Outcome RESTORED = new RestorePlan.Restored(VOLUMES);

    static Restore from(String node) {
        return Restore.start(3, "db", 7, node, "n3", 21, VOLUMES);
    }

    static Operation.Outcome fail(String why) {
        return new Operation.Failed(Operation.Reason.FAILED, why);
    }

    static Stream<Arguments> paths() {
        return Stream.of(
                Arguments.of("source answers", from("n2"), List.of(ANSWERS, OK, RESTORED, OK, OK, OK, OK),
                        List.of("preflight", "fence", "restore", "start", "switch", "push", "old-copy", "done")),
                Arguments.of("source lost", from("n2"), List.of(SILENT, OK, RESTORED, OK, OK, OK, OK),
                        List.of("preflight", "lose", "restore", "start", "switch", "push", "old-copy", "done")),
                Arguments.of("runs nowhere", from(null), List.of(SILENT, RESTORED, OK, OK, OK),
                        List.of("preflight", "restore", "start", "switch", "push", "done")),
                Arguments.of("preflight fails: nothing changed", from("n2"), List.of(fail("n3 lacks an image")),
                        List.of("preflight", "failed")),
                Arguments.of("a corrupt blob: unfence first, then delete the copy", from("n2"), List.of(ANSWERS, OK, fail("file x differs"), OK, OK),
                        List.of("preflight", "fence", "restore", "unfence", "delete-copy", "rolled-back")),
                Arguments.of("lost, the restore fails: the lost mark goes", from("n2"), List.of(SILENT, OK, fail("registry down"), OK, OK),
                        List.of("preflight", "lose", "restore", "unfence", "delete-copy", "rolled-back")),
                Arguments.of("the start fails: the target stops first", from("n2"), List.of(ANSWERS, OK, RESTORED, fail("not healthy"), OK, OK, OK),
                        List.of("preflight", "fence", "restore", "start", "stop-target", "delete-copy", "unfence", "rolled-back")),
                Arguments.of("a push that fails is tried again", from("n2"), List.of(ANSWERS, OK, RESTORED, OK, OK, fail("busy"), OK, OK),
                        List.of("preflight", "fence", "restore", "start", "switch", "push", "push", "old-copy", "done")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void eachPathEndsAsItShouldAndNeverRunsTwoCopies(String name, Restore start, List<Operation.Outcome> outcomes, List<String> steps) {
        List<String> seen = new ArrayList<>();
        Restore r = start;
        for (Operation.Outcome o : outcomes) {
            seen.add(r.step().word());
            assertFalse(RestorePlan.sourceMayRun(r) && RestorePlan.targetMayRun(r), name + ": two copies may run at " + r.step());
            r = RestorePlan.after(r, o);
        }
        seen.add(r.step().word());
        assertEquals(steps, seen, name);
        assertTrue(r.step().ended(), name);
    }

    @Test
    void aLostSourceIsMarkedAndARollbackForgetsTheMark() {
        Restore lost = RestorePlan.after(RestorePlan.after(from("n2"), SILENT), OK);
        assertTrue(lost.lost());
        Restore back = RestorePlan.after(RestorePlan.after(lost, fail("registry down")), OK);
        assertFalse(back.lost(), "the node's copy is the module's again");
        assertEquals("restore: registry down", back.error());
    }

    @Test
    void theRestoredDigestsAreRecordedAndTheTakeCarriesTheVolumes() {
        Restore r = RestorePlan.after(RestorePlan.after(RestorePlan.after(from("n2"), ANSWERS), OK), RESTORED);
        assertEquals(VOLUMES, r.volumes());
        Take t = r.asTake(TakeStep.START);
        assertEquals(List.of("dump"), t.volumes().stream().map(Take.Volume::name).toList());
        assertEquals(21, t.epoch());
        assertEquals("n2", t.from());
        assertEquals("n3", t.to());
    }

    @Test
    void aDryRunSaysWhatHappensToASilentSource() {
        List<String> steps = RestorePlan.stepsAhead(from("n2"), false);
        assertTrue(steps.get(0).startsWith("lose: n2 does not answer"), steps.toString());
        assertTrue(RestorePlan.stepsAhead(from("n2"), true).get(0).startsWith("fence: stop db on n2"));
    }
}
