package mesh.plan;

import mesh.model.TakeStep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import mesh.plan.TakePlan.Copied;
import mesh.plan.Operation.Done;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Reason;
import mesh.plan.Operation.Outcome;
import mesh.plan.TakePlan.Preflighted;
import mesh.plan.TakePlan.Ticketed;
import mesh.plan.TakePlan.Verified;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** TakePlanTest: every step's way forward, its failure, a crash at any step, and never two copies running. */
class TakePlanTest {

    static final Take.Volume DATA = new Take.Volume("data", "container", 200, 1, false, null, null);
    static final Take.Volume FILES = new Take.Volume("files", "container", 50, 2000, false, null, null);
    static final Take NEW = Take.start("web", "n1", "n2", 7, false);

    /** The record at {@code step} with both volumes, as a take that got there has it. */
    static Take at(TakeStep step) {
        boolean copied = step.ordinal() > TakeStep.COPY.ordinal() && step != TakeStep.FAILED;
        boolean preCopied = step.ordinal() > TakeStep.PRE_COPY.ordinal() && step != TakeStep.FAILED;
        List<Take.Volume> volumes = Stream.of(DATA, FILES).map(v -> preCopied ? v.withPass(live(v)) : v)
                .map(v -> copied ? v.withPass(new Take.Pass(false, 10, 1, 0, 0.1, 2000)) : v).toList();
        return NEW.withVolumes(volumes).withTicket(step.ordinal() > TakeStep.TICKET.ordinal() ? "t" : null).at(step);
    }

    /** A quick pass of the pre-copy of {@code v}: the rule then fences. */
    static Take.Pass live(Take.Volume v) {
        return new Take.Pass(true, v.bytes(), v.files(), 0, 0.5, 1000);
    }

    /** What the runner hands back when {@code step} goes through. */
    static Outcome ok(Take t) {
        return switch (t.step()) {
            case PREFLIGHT -> new Preflighted(List.of(DATA, FILES));
            case PRE_COPY -> new TakePlan.PreCopied(t.nextToPreCopy(TakePlan.preCopyPass(t)).name(),
                    live(t.nextToPreCopy(TakePlan.preCopyPass(t))));
            case TICKET -> new Ticketed("abc");
            case COPY -> new Copied(t.nextToCopy().name(), t.nextToCopy().bytes(), t.nextToCopy().files());
            case VERIFY -> new Verified(t.volumes(), null);
            // a switch in doubt is only read again: here it had committed
            case SWITCH -> TakePlan.switchInDoubt(t) ? new TakePlan.SwitchFound(t.to()) : new Done();
            default -> new Done();
        };
    }

    static Stream<Arguments> forward() {
        return Stream.of(
                Arguments.of(TakeStep.PREFLIGHT, TakeStep.PRE_COPY),
                Arguments.of(TakeStep.FENCE, TakeStep.TICKET),
                Arguments.of(TakeStep.TICKET, TakeStep.COPY),
                Arguments.of(TakeStep.VERIFY, TakeStep.START),
                Arguments.of(TakeStep.START, TakeStep.SWITCH),
                Arguments.of(TakeStep.SWITCH, TakeStep.PUSH),
                Arguments.of(TakeStep.PUSH, TakeStep.OLD_COPY),
                Arguments.of(TakeStep.OLD_COPY, TakeStep.DONE));
    }

    @ParameterizedTest(name = "{0} went through: {1}")
    @MethodSource("forward")
    void eachStepThatGoesThroughLeadsToTheNext(TakeStep step, TakeStep next) {
        Take t = at(step);
        Take after = TakePlan.after(t, ok(t));
        assertEquals(next, after.step());
        assertNull(after.problem());
    }

    /** The record at rollback step {@code step} of a rollback that began when {@code began} failed. */
    static Take rollingBack(TakeStep began, TakeStep step) {
        return at(began).withError(began.word() + ": x").at(step);
    }

    static Stream<Arguments> rollbackForward() {
        return Stream.of(
                // from the start or the switch: the target may run the module, so it is stopped first
                Arguments.of(TakeStep.START, TakeStep.STOP_TARGET, TakeStep.DELETE_COPY),
                Arguments.of(TakeStep.START, TakeStep.DELETE_COPY, TakeStep.UNFENCE),
                Arguments.of(TakeStep.START, TakeStep.UNFENCE, TakeStep.ROLLED_BACK),
                Arguments.of(TakeStep.SWITCH, TakeStep.DELETE_COPY, TakeStep.UNFENCE),
                // before the start the target never had the module: the source first, then the copy
                Arguments.of(TakeStep.COPY, TakeStep.UNFENCE, TakeStep.DELETE_COPY),
                Arguments.of(TakeStep.COPY, TakeStep.DELETE_COPY, TakeStep.ROLLED_BACK),
                Arguments.of(TakeStep.VERIFY, TakeStep.UNFENCE, TakeStep.DELETE_COPY),
                Arguments.of(TakeStep.VERIFY, TakeStep.DELETE_COPY, TakeStep.ROLLED_BACK),
                // the pre-copy left a copy (a failed first pass, a partial one): deleted after the unfence
                Arguments.of(TakeStep.PRE_COPY, TakeStep.UNFENCE, TakeStep.DELETE_COPY),
                Arguments.of(TakeStep.PRE_COPY, TakeStep.DELETE_COPY, TakeStep.ROLLED_BACK),
                Arguments.of(TakeStep.FENCE, TakeStep.UNFENCE, TakeStep.DELETE_COPY),
                Arguments.of(TakeStep.TICKET, TakeStep.UNFENCE, TakeStep.DELETE_COPY));
    }

    @ParameterizedTest(name = "rolling back from {0}: {1} went through: {2}")
    @MethodSource("rollbackForward")
    void eachRollbackStepLeadsToTheNextInItsOrder(TakeStep began, TakeStep step, TakeStep next) {
        Take after = TakePlan.after(rollingBack(began, step), new Done());
        assertEquals(next, after.step());
        assertNull(after.problem());
        assertEquals(began.word() + ": x", after.error());
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(TakeStep.PREFLIGHT, TakeStep.FAILED),
                Arguments.of(TakeStep.PRE_COPY, TakeStep.UNFENCE),
                Arguments.of(TakeStep.FENCE, TakeStep.UNFENCE),
                Arguments.of(TakeStep.TICKET, TakeStep.UNFENCE),
                Arguments.of(TakeStep.COPY, TakeStep.UNFENCE),
                Arguments.of(TakeStep.VERIFY, TakeStep.UNFENCE),
                Arguments.of(TakeStep.START, TakeStep.STOP_TARGET),
                // a failed switch may have committed: kept in doubt, rolled back only once read not to have
                Arguments.of(TakeStep.SWITCH, TakeStep.SWITCH),
                // after the switch, and in a rollback, the step is tried again: never rolled back, never skipped
                Arguments.of(TakeStep.PUSH, TakeStep.PUSH),
                Arguments.of(TakeStep.OLD_COPY, TakeStep.OLD_COPY),
                Arguments.of(TakeStep.STOP_TARGET, TakeStep.STOP_TARGET),
                Arguments.of(TakeStep.DELETE_COPY, TakeStep.DELETE_COPY),
                Arguments.of(TakeStep.UNFENCE, TakeStep.UNFENCE));
    }

    @ParameterizedTest(name = "{0} failed: {1}")
    @MethodSource("failures")
    void eachStepThatFailsRollsBackFailsOrIsTriedAgain(TakeStep step, TakeStep next) {
        Take after = TakePlan.after(at(step), new Failed(Reason.FAILED, "node n2's agent did not answer"));
        assertEquals(next, after.step());
        String said = after.step() == step ? after.problem() : after.error();
        assertEquals(step.word() + ": node n2's agent did not answer", said);
    }

    @Test
    void aRollbackKeepsWhyItBeganWhileItsOwnStepsAreTriedAgain() {
        Take rolling = TakePlan.after(at(TakeStep.COPY), new Failed(Reason.FAILED, "disk full"));
        Take stuck = TakePlan.after(rolling, new Failed(Reason.FAILED, "node n2's agent did not answer"));
        assertEquals("copy: disk full", stuck.error());
        assertEquals("unfence: node n2's agent did not answer", stuck.problem());
        Take on = TakePlan.after(stuck, new Done());
        assertEquals(TakeStep.DELETE_COPY, on.step());
        assertNull(on.problem());
        assertEquals("copy: disk full", on.error());
    }

    @Test
    void onlyARollbackFromTheStartOrTheSwitchLiftsAFenceOnTheTarget() {
        assertTrue(TakePlan.targetFenced(TakePlan.after(at(TakeStep.START), new Failed(Reason.FAILED, "unhealthy"))));
        assertTrue(TakePlan.targetFenced(TakePlan.after(TakePlan.after(at(TakeStep.SWITCH), new Failed(Reason.FAILED, "moved")),
                new TakePlan.SwitchFound("n1"))));
        assertFalse(TakePlan.targetFenced(TakePlan.after(at(TakeStep.COPY), new Failed(Reason.FAILED, "disk full"))));
        assertFalse(TakePlan.targetFenced(TakePlan.after(at(TakeStep.VERIFY), new Verified(List.of(), "volume data: x"))));
    }

    /** The switch step failed as the runner records a commit that outlived its deadline (a paused synchronous standby). */
    static Take switchTimedOut() {
        return TakePlan.after(at(TakeStep.SWITCH), new Failed(Reason.TIMED_OUT, "it did not end within its deadline of 5 min"));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Reason.class)
    void aFailedSwitchIsNeverRolledBackBlindItsOutcomeIsInDoubt(Reason reason) {
        Take t = TakePlan.after(at(TakeStep.SWITCH), new Failed(reason, "the controller's store (PostgreSQL) failed"));
        assertEquals(TakeStep.SWITCH, t.step(), "whatever the reason, the switch may have committed");
        assertTrue(TakePlan.switchInDoubt(t));
        assertNull(t.error(), "no rollback began");
        assertEquals("switch: the controller's store (PostgreSQL) failed", t.problem());
        assertFalse(TakePlan.switchInDoubt(at(TakeStep.SWITCH)), "a switch without a failed try is carried out");
        assertFalse(TakePlan.switchInDoubt(at(TakeStep.PUSH).withProblem("push: x")), "only the switch is in doubt");
    }

    @Test
    void aSwitchInDoubtFoundCommittedGoesForwardAndNeverDeletesTheTargetsCopy() {
        Take found = TakePlan.after(switchTimedOut(), new TakePlan.SwitchFound("n2"));
        assertEquals(TakeStep.PUSH, found.step());
        assertNull(found.problem());
        assertNull(found.error());
        List<TakeStep> rest = walk(found, s -> false);
        assertEquals(List.of(TakeStep.PUSH, TakeStep.OLD_COPY, TakeStep.DONE), rest);
        // the same once the push fails a few times: after the switch a take only goes forward
        List<TakeStep> pushFails = walk(found, s -> s == TakeStep.PUSH);
        assertEquals(List.of(TakeStep.PUSH, TakeStep.PUSH, TakeStep.OLD_COPY, TakeStep.DONE), pushFails);
    }

    @Test
    void aSwitchInDoubtFoundNotCommittedRollsBackAsAFailedSwitchAlwaysDid() {
        Take found = TakePlan.after(switchTimedOut(), new TakePlan.SwitchFound("n1"));
        assertEquals(TakeStep.STOP_TARGET, found.step(), "the target may run the module: it is stopped first");
        assertEquals("switch: it did not end within its deadline of 5 min; the placement has web taken on n1, so the switch"
                + " did not commit", found.error());
        assertTrue(TakePlan.targetStarted(found) && TakePlan.targetFenced(found));
        assertEquals(List.of(TakeStep.STOP_TARGET, TakeStep.DELETE_COPY, TakeStep.UNFENCE, TakeStep.ROLLED_BACK),
                walk(found, s -> false));
        Take nowhere = TakePlan.after(switchTimedOut(), new TakePlan.SwitchFound(null));
        assertEquals(TakeStep.STOP_TARGET, nowhere.step(), "taken nowhere: not this take's switch either");
        assertTrue(nowhere.error().endsWith("the placement has web taken nowhere, so the switch did not commit"), nowhere.error());
    }

    @Test
    void aSwitchInDoubtWhoseStoreCannotBeReadWaitsAndKeepsTheTargetsCopy() {
        Take unread = TakePlan.after(switchTimedOut(), new Failed(Reason.INTERNAL,
                "the controller's store (PostgreSQL) failed: canceling statement due to lock timeout"));
        assertEquals(TakeStep.SWITCH, unread.step());
        assertTrue(TakePlan.switchInDoubt(unread), "read again on the next try");
        assertNull(unread.error());
        assertEquals("switch: the controller's store (PostgreSQL) failed: canceling statement due to lock timeout", unread.problem());
        assertEquals(unread, TakePlan.gaveUp(unread), "out of tries it waits for 'mesh take' as it stands: nothing deleted");
        assertFalse(TakePlan.sourceMayRun(unread), "the source stays fenced while the switch is in doubt");
        assertTrue(TakePlan.targetMayRun(unread));
        // carried on later ('mesh take n2 web', or the next controller): the placement decides then
        assertEquals(TakeStep.PUSH, TakePlan.after(unread, new TakePlan.SwitchFound("n2")).step());
        assertEquals(TakeStep.STOP_TARGET, TakePlan.after(unread, new TakePlan.SwitchFound("n1")).step());
    }

    @Test
    void theSwitchCommittedWhenThePlacementNamesTheTargetWhereverItIsAssigned() {
        Take t = at(TakeStep.SWITCH);
        assertTrue(TakePlan.switched(t, "n2"));
        assertFalse(TakePlan.switched(t, "n1"));
        assertFalse(TakePlan.switched(t, "n3"));
        assertFalse(TakePlan.switched(t, null));
        // only the taken node counts: a switch that committed, its controller killed before it recorded that, then
        // 'mesh assign n3 web' (assigned n3, taken n2) is found done by the resumed switch, not refused as moved
    }

    @Test
    void aRestoresSwitchInDoubtIsDecidedTheSameWay() {
        Take r = Take.restore(4, "web", 9, "n1", "n2", 7, List.of(DATA), null).withVolumes(List.of(DATA)).at(TakeStep.SWITCH);
        Take doubt = TakePlan.after(r, new Failed(Reason.TIMED_OUT, "it did not end within its deadline of 5 min"));
        assertTrue(TakePlan.switchInDoubt(doubt));
        assertEquals(TakeStep.PUSH, TakePlan.after(doubt, new TakePlan.SwitchFound("n2")).step());
        Take back = TakePlan.after(doubt, new TakePlan.SwitchFound("n1"));
        assertEquals(TakeStep.STOP_TARGET, back.step());
        assertEquals(TakeStep.DELETE_COPY, TakePlan.after(back, new Done()).step(), "the restored copy is deleted only then");
    }

    @Test
    void theCopyGoesVolumeByVolumeAndVerifiesOnlyWhenAllAreWhole() {
        Take t = at(TakeStep.COPY);
        t = TakePlan.after(t, new Copied("data", 200, 1));
        assertEquals(TakeStep.COPY, t.step());
        assertEquals("files", t.nextToCopy().name());
        t = TakePlan.after(t, new Copied("files", 50, 2000));
        assertEquals(TakeStep.VERIFY, t.step());
        assertNull(t.nextToCopy());
    }

    @Test
    void aDifferenceAtVerifyRollsBackSayingWhatDiffered() {
        Take t = TakePlan.after(at(TakeStep.VERIFY), new Verified(at(TakeStep.VERIFY).volumes(),
                "volume files: a/b.txt: size 3 on the source, 4 on the target"));
        assertEquals(TakeStep.UNFENCE, t.step());
        assertEquals("verify: volume files: a/b.txt: size 3 on the source, 4 on the target; the copy on n2 is deleted"
                + " and web starts on n1 again", t.error());
    }

    @Test
    void aModuleThatRanNowhereHasNothingToFenceCopyOrKeep() {
        Take t = Take.start("web", null, "n2", 3, false);
        List<TakeStep> steps = walk(t, s -> false);
        assertEquals(List.of(TakeStep.PREFLIGHT, TakeStep.START, TakeStep.SWITCH, TakeStep.PUSH, TakeStep.DONE), steps);
        Take failedStart = TakePlan.after(TakePlan.after(t, ok(t)).at(TakeStep.START), new Failed(Reason.FAILED, "unhealthy"));
        assertEquals(TakeStep.STOP_TARGET, failedStart.step());
        assertEquals(TakeStep.UNFENCE, TakePlan.after(failedStart, new Done()).step());
    }

    @Test
    void aModuleWithoutVolumesIsFencedThenStartedWithNoCopy() {
        Take t = TakePlan.after(NEW, new Preflighted(List.of()));
        assertEquals(TakeStep.FENCE, t.step());
        assertEquals(TakeStep.START, TakePlan.after(t, new Done()).step());
    }

    @Test
    void theWholeWayForward() {
        assertEquals(List.of(TakeStep.PREFLIGHT, TakeStep.PRE_COPY, TakeStep.PRE_COPY, TakeStep.FENCE, TakeStep.TICKET,
                TakeStep.COPY, TakeStep.COPY, TakeStep.VERIFY, TakeStep.START, TakeStep.SWITCH, TakeStep.PUSH, TakeStep.OLD_COPY,
                TakeStep.DONE), walk(NEW, s -> false));
    }

    @Test
    void aStopAndCopyTakeHasNoPreCopyAndCopiesWholeAfterTheFence() {
        assertEquals(List.of(TakeStep.PREFLIGHT, TakeStep.FENCE, TakeStep.TICKET, TakeStep.COPY, TakeStep.COPY,
                TakeStep.VERIFY, TakeStep.START, TakeStep.SWITCH, TakeStep.PUSH, TakeStep.OLD_COPY, TakeStep.DONE),
                walk(NEW.withStopAndCopy(true), s -> false));
        Take fenced = NEW.withStopAndCopy(true).withVolumes(List.of(DATA)).withError("ticket: x").at(TakeStep.UNFENCE);
        assertEquals(TakeStep.ROLLED_BACK, TakePlan.after(fenced, new Done()).step(), "no copy to delete before the copy");
    }

    /** Pass after pass over every volume while the module runs, as {@link PreCopy} decides; then the fence, then the delta. */
    @Test
    void thePreCopyPassesOverEveryVolumeUntilTheRuleFencesThenTheCopyIsTheDelta() {
        Take t = TakePlan.after(NEW, new Preflighted(List.of(DATA, FILES)));
        List<String> seen = new ArrayList<>();
        long[][] passes = {{2_000_000_000L, 14}, {800_000_000L, 6}, {100_000_000L, 2}, {10_000_000L, 1}};
        for (int i = 0; t.step() == TakeStep.PRE_COPY && i < 20; i++) {
            int n = TakePlan.preCopyPass(t);
            Take.Volume v = t.nextToPreCopy(n);
            seen.add(n + " " + v.name());
            long[] p = passes[n - 1];
            t = TakePlan.after(t, new TakePlan.PreCopied(v.name(), new Take.Pass(true, p[0] / 2, 3, 1, p[1] / 2.0, 1000L * n)));
        }
        assertEquals(List.of("1 data", "1 files", "2 data", "2 files", "3 data", "3 files", "4 data", "4 files"), seen,
                "each pass goes over every volume; the fourth is the last");
        assertEquals(TakeStep.FENCE, t.step());
        Take copying = TakePlan.after(TakePlan.after(t, new Done()), new Ticketed("k")).withVolumes(t.volumes());
        assertEquals(TakeStep.COPY, copying.at(TakeStep.COPY).step());
        assertTrue(TakeWords.describe(copying.at(TakeStep.COPY)).startsWith("copy: what changed in volume data since the pre-copy"),
                TakeWords.describe(copying.at(TakeStep.COPY)));
        Take after = TakePlan.after(copying.at(TakeStep.COPY), new Copied("data", 5, 2, new Take.Pass(false, 5, 2, 1, 0.2, 9000)));
        assertEquals(200, after.volumes().get(0).bytes(), "the volume keeps its size; the delta's bytes are the pass's");
        assertTrue(after.volumes().get(0).copied());
        assertEquals(5, after.volumes().get(0).passes().size());
        assertEquals(9000, after.volumes().get(0).since());
    }

    @Test
    void aModuleWritingAsFastAsTheCopyIsFencedAfterThePassThatDidNotShrink() {
        Take t = TakePlan.after(NEW, new Preflighted(List.of(DATA)));
        t = TakePlan.after(t, new TakePlan.PreCopied("data", new Take.Pass(true, 400, 1, 0, 5, 1)));
        assertEquals(TakeStep.PRE_COPY, t.step());
        assertEquals(2, TakePlan.preCopyPass(t));
        t = TakePlan.after(t, new TakePlan.PreCopied("data", new Take.Pass(true, 380, 1, 0, 5, 2)));
        assertEquals(TakeStep.FENCE, t.step(), "the second pass sent almost as much as the first");
    }

    /** The steps a take goes through from {@code t}, failing at each step {@code fails} says. */
    static List<TakeStep> walk(Take t, java.util.function.Predicate<TakeStep> fails) {
        List<TakeStep> steps = new ArrayList<>();
        Set<TakeStep> failedOnce = EnumSet.noneOf(TakeStep.class);
        for (int i = 0; i < 40 && !t.step().ended(); i++) {
            steps.add(t.step());
            boolean fail = fails.test(t.step()) && failedOnce.add(t.step());
            t = TakePlan.after(t, fail ? new Failed(Reason.FAILED, "x") : ok(t));
        }
        steps.add(t.step());
        return steps;
    }

    /**
     * A controller killed at any step and started again redoes the step its record holds: the record
     * it wrote before dying is the same one a resume reads, and every path from there ends, forward or
     * rolled back, whichever step then fails.
     */
    @ParameterizedTest(name = "killed at {0}")
    @EnumSource(value = TakeStep.class, names = {"PREFLIGHT", "PRE_COPY", "FENCE", "TICKET", "COPY", "VERIFY", "START", "SWITCH", "PUSH",
        "OLD_COPY", "STOP_TARGET", "DELETE_COPY", "UNFENCE"})
    void aTakeKilledAtAnyStepResumesThereAndEnds(TakeStep killedAt) {
        Take recorded = at(killedAt);
        // a crash hands nothing back: the resumed runner carries out the recorded step again
        Take resumed = recorded;
        assertEquals(killedAt, resumed.step());
        for (TakeStep failing : TakeStep.values()) {
            List<TakeStep> path = walk(resumed, s -> s == failing);
            TakeStep end = path.get(path.size() - 1);
            assertTrue(end.ended(), killedAt + ", then " + failing + " failing: " + path);
            boolean switched = path.contains(TakeStep.PUSH) || killedAt.ordinal() >= TakeStep.PUSH.ordinal()
                    && killedAt.ordinal() <= TakeStep.DONE.ordinal();
            assertEquals(switched ? TakeStep.DONE : end, end, "after the switch a take only goes forward: " + path);
        }
    }

    @ParameterizedTest(name = "at {0}")
    @EnumSource(TakeStep.class)
    void noStepLetsTheModuleRunOnBothNodes(TakeStep step) {
        assertFalse(TakePlan.sourceMayRun(step) && TakePlan.targetMayRun(step), step.word());
        // whatever step the rollback began at, the record at this step lets the module run on one node at most
        for (TakeStep began : TakeStep.values()) {
            Take t = rollingBack(began, step);
            assertFalse(TakePlan.sourceMayRun(t) && TakePlan.targetMayRun(t), began.word() + ", then " + step.word());
        }
    }

    @Test
    void aDeleteCopyThatKeepsFailingAfterTheSourceRunsAgainEndsTheTakeRolledBackSayingWhatIsLeft() {
        Take stuck = TakePlan.after(rollingBack(TakeStep.COPY, TakeStep.DELETE_COPY),
                new Failed(Reason.FAILED, "node n2's agent did not answer within 30 s"));
        assertEquals(TakeStep.DELETE_COPY, stuck.step());
        assertTrue(TakePlan.sourceMayRun(stuck), "the source was unfenced before the copy is deleted");
        Take ended = TakePlan.gaveUp(stuck);
        assertEquals(TakeStep.ROLLED_BACK, ended.step());
        assertEquals("copy: x", ended.error());
        assertEquals("delete-copy: node n2's agent did not answer within 30 s; the partial copy of web (volume data,"
                + " files) is left on n2: it is never started there, and the next take into n2 empties it", ended.problem());
    }

    @Test
    void aTargetThatDoesNotAnswerTheDeleteBeforeTheStartEndsTheTakeRolledBackWithTheCopyLeft() {
        Take t = rollingBack(TakeStep.COPY, TakeStep.DELETE_COPY);
        Take ended = TakePlan.after(t, new TakePlan.Left("node n2's agent did not answer the delete of the copy"));
        assertEquals(TakeStep.ROLLED_BACK, ended.step());
        assertEquals("copy: x", ended.error());
        assertEquals("node n2's agent did not answer the delete of the copy: the partial copy of web (volume data, files) is"
                + " left on n2, never started there, and deleted once its agent answers again", ended.problem());
        assertTrue(TakePlan.sourceMayRun(ended) && !TakePlan.targetMayRun(ended));
    }

    @Test
    void aTargetThatRanTheModuleIsNeverLeftByTheDelete() {
        Take t = rollingBack(TakeStep.START, TakeStep.DELETE_COPY);
        assertEquals(TakeStep.UNFENCE, TakePlan.after(t, new TakePlan.Left("no answer")).step(),
                "after a start the delete's outcome does not end the take: the unfence still lifts the target's fence");
    }

    @ParameterizedTest(name = "{0} keeps failing")
    @EnumSource(value = TakeStep.class, names = {"PUSH", "OLD_COPY", "STOP_TARGET", "UNFENCE"})
    void anyOtherStepThatKeepsFailingWaitsForTheOperator(TakeStep step) {
        Take stuck = TakePlan.after(rollingBack(TakeStep.COPY, step), new Failed(Reason.FAILED, "no answer"));
        assertEquals(stuck, TakePlan.gaveUp(stuck));
        Take lateDelete = TakePlan.after(rollingBack(TakeStep.START, TakeStep.DELETE_COPY), new Failed(Reason.FAILED, "no answer"));
        assertEquals(lateDelete, TakePlan.gaveUp(lateDelete), "after a start the source is still fenced: the take waits");
    }

    /**
     * Along every path, with any one step failing, the target is started only once the source's
     * fence went through, and the source is unfenced only once the target is stopped (or never started).
     */
    @ParameterizedTest(name = "{0} failing")
    @EnumSource(TakeStep.class)
    void everyPathStartsOneCopyOnlyOnceTheOtherIsStopped(TakeStep failing) {
        List<TakeStep> path = walk(NEW, s -> s == failing);
        boolean sourceStopped = false;
        boolean targetMayRun = false;
        for (int i = 0; i + 1 < path.size(); i++) {
            TakeStep s = path.get(i);
            TakeStep next = path.get(i + 1);
            if (s == TakeStep.START) {
                assertTrue(sourceStopped, "started on the target with the source unfenced: " + path);
                targetMayRun = true;
            }
            if (s == TakeStep.FENCE && next != TakeStep.UNFENCE) {
                sourceStopped = true;
            }
            if (s == TakeStep.STOP_TARGET && next != TakeStep.STOP_TARGET) {
                targetMayRun = false;
            }
            if (s == TakeStep.UNFENCE && next != TakeStep.UNFENCE) {
                assertFalse(targetMayRun, "the source runs again while the target may run: " + path);
                sourceStopped = false;
            }
            if (!sourceStopped && path.subList(0, i + 1).contains(TakeStep.UNFENCE)) {
                assertTrue(s != TakeStep.START && s != TakeStep.STOP_TARGET,
                        "the target is sent the module after the source was unfenced: " + path);
            }
        }
    }

    @Test
    void aDryRunSaysEveryStepAhead() {
        List<String> lines = TakeWords.stepsAhead(NEW.withVolumes(List.of(DATA, FILES)));
        assertEquals(12, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).startsWith("preflight: n2's agent answers"));
        assertEquals("pre-copy: pass 1 of volume data (200 B) from n1 to n2 while web runs there, agent to agent", lines.get(1));
        assertEquals("pre-copy: pass 1 of volume files (50 B) from n1 to n2 while web runs there, agent to agent", lines.get(2));
        assertEquals("copy: what changed in volume data since the pre-copy, from n1 to n2 (web stopped)", lines.get(5));
        assertEquals("copy: what changed in volume files since the pre-copy, from n1 to n2 (web stopped)", lines.get(6));
        assertTrue(lines.get(11).startsWith("old copy: n1 keeps its copy, labelled as left by the take at epoch 7"));
        List<String> whole = TakeWords.stepsAhead(NEW.withVolumes(List.of(DATA, FILES)).withStopAndCopy(true));
        assertEquals("copy: volume data (200 B) from n1 to n2, agent to agent", whole.get(3));
    }

    @Test
    void anEndedTakeStaysEnded() {
        for (TakeStep end : List.of(TakeStep.DONE, TakeStep.ROLLED_BACK, TakeStep.FAILED)) {
            assertEquals(end, TakePlan.after(at(end), new Failed(Reason.FAILED, "x")).step());
            assertEquals(end.word(), end.state().word());
        }
        assertEquals(mesh.model.OperationState.RUNNING, TakeStep.COPY.state());
        assertEquals(TakeStep.OLD_COPY, TakeStep.of("old-copy"));
    }
}
