package mesh.host.process;

import static mesh.host.process.Identity.Verdict.ADOPT;
import static mesh.host.process.Identity.Verdict.FOREIGN;
import static mesh.host.process.Identity.Verdict.GONE;
import static mesh.host.process.Supervision.Action.KEEP;
import static mesh.host.process.Supervision.Action.REPLACE;
import static mesh.host.process.Supervision.Action.START;
import static mesh.host.process.Supervision.Action.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SupervisionTest: the supervisor's decisions and backoff, as plain data in, action out. */
class SupervisionTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(60));

    static Stream<Arguments> decisions() {
        ProcessRecord running = Records.running("sha256:aa");
        ProcessRecord ended = Supervision.ended(running, ExitStatus.fromWait(1, "x"), T0.plusSeconds(1), BACKOFF);
        return Stream.of(
                Arguments.of("nothing recorded", "sha256:aa", null, GONE, T0, START),
                Arguments.of("ours runs, same spec", "sha256:aa", running, ADOPT, T0, KEEP),
                Arguments.of("ours runs, new spec", "sha256:bb", running, ADOPT, T0, REPLACE),
                Arguments.of("ended, backoff not over", "sha256:aa", ended, GONE, T0.plusMillis(1500), WAIT),
                Arguments.of("ended, backoff over", "sha256:aa", ended, GONE, T0.plusSeconds(2), START),
                Arguments.of("ended, new spec starts at once", "sha256:bb", ended, GONE, T0.plusMillis(1500), START),
                Arguments.of("pid reused by another process", "sha256:aa", ended, FOREIGN, T0.plusSeconds(5), START),
                Arguments.of("stopped on purpose, applied again", "sha256:aa", ended.withStopped(true), GONE, T0, START));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decisions")
    void decides(String name, String digest, ProcessRecord record, Identity.Verdict verdict, Instant now, Supervision.Action expected) {
        assertEquals(expected, Supervision.decide(Records.spec(digest), record, verdict, now));
    }

    @Test
    void backoffDoublesUpToTheCap() {
        List<Long> delays = Stream.of(0, 1, 2, 3, 4, 5, 40).map(n -> BACKOFF.delay(n).toMillis()).toList();
        assertEquals(List.of(0L, 1000L, 2000L, 4000L, 8000L, 8000L, 8000L), delays);
    }

    @Test
    void quickFailuresCountUpAndAStableRunStartsAgain() {
        ProcessRecord r = Records.running("sha256:aa");
        ProcessRecord first = Supervision.ended(r, ExitStatus.fromWait(1, "x"), T0.plusSeconds(1), BACKOFF);
        assertEquals(1, first.failures());
        assertEquals(T0.plusSeconds(2).toString(), first.nextStartAt());
        assertEquals(0, first.pid());
        assertEquals(1, first.lastExit().code());

        ProcessRecord again = first.running(5, 7, Records.BOOT, List.of(), T0.plusSeconds(2).toString(), 1);
        ProcessRecord second = Supervision.ended(again, ExitStatus.fromWait(1, "x"), T0.plusSeconds(3), BACKOFF);
        assertEquals(2, second.failures());
        assertEquals(T0.plusSeconds(5).toString(), second.nextStartAt());

        ProcessRecord stable = second.running(6, 8, Records.BOOT, List.of(), T0.plusSeconds(5).toString(), 2);
        ProcessRecord third = Supervision.ended(stable, ExitStatus.fromWait(1, "x"), T0.plusSeconds(500), BACKOFF);
        assertEquals(1, third.failures());
    }

    @Test
    void theBackoffBeforeEachRestartIsTheOneItsEndChose() {
        ProcessRecord r = Records.running("sha256:aa");
        Instant at = T0;
        List<Long> chosen = new java.util.ArrayList<>();
        List<Long> scheduled = new java.util.ArrayList<>();
        for (int run = 0; run < 5; run++) {
            Instant ended = at.plusMillis(10);
            ProcessRecord end = Supervision.ended(r, ExitStatus.fromWait(1, ended.toString()), ended, BACKOFF);
            chosen.add(Supervision.backoffBefore(end, BACKOFF).toMillis());
            scheduled.add(Duration.between(ended, Instant.parse(end.nextStartAt())).toMillis());
            at = Instant.parse(end.nextStartAt());
            r = end.running(5 + run, 7, Records.BOOT, List.of(), at.toString(), run + 1);
        }
        assertEquals(List.of(1000L, 2000L, 4000L, 8000L, 8000L), chosen);
        assertEquals(scheduled, chosen, "the restart reports the wait its end scheduled");

        ProcessRecord failed = Supervision.launchFailed(Records.spec("sha256:aa"), r, "missing", at, BACKOFF);
        assertEquals(Duration.between(at, Instant.parse(failed.nextStartAt())), Supervision.backoffBefore(failed, BACKOFF),
                "and after a launch that failed, the wait that failure scheduled");
    }

    @Test
    void aStoppedProcessIsNotPutOnBackoff() {
        ProcessRecord stopped = Records.running("sha256:aa").withStopped(true);
        ProcessRecord ended = Supervision.ended(stopped, ExitStatus.fromWait(0, "x"), T0, BACKOFF);
        assertNull(ended.nextStartAt());
        assertTrue(ended.stopped());
    }

    @Test
    void aRestartIsAStartAfterAnEndOfTheSameSpec() {
        ProcessRecord ended = Supervision.ended(Records.running("sha256:aa"), ExitStatus.fromWait(1, "x"), T0, BACKOFF);
        assertTrue(Supervision.isRestart(Records.spec("sha256:aa"), ended));
        assertFalse(Supervision.isRestart(Records.spec("sha256:bb"), ended));
        assertFalse(Supervision.isRestart(Records.spec("sha256:aa"), null));
        assertFalse(Supervision.isRestart(Records.spec("sha256:aa"), ended.withStopped(true)));
    }

    @Test
    void aFailedLaunchIsRetriedWithBackoff() {
        ProcessRecord failed = Supervision.launchFailed(Records.spec("sha256:aa"), null, "the executable is missing", T0, BACKOFF);
        assertEquals("the executable is missing", failed.launchError());
        assertEquals(T0.plusSeconds(1).toString(), failed.nextStartAt());
        ProcessRecord twice = Supervision.launchFailed(Records.spec("sha256:aa"), failed, "still missing", T0.plusSeconds(1), BACKOFF);
        assertEquals(T0.plusSeconds(3).toString(), twice.nextStartAt());
        assertEquals(1, twice.restarts());
        assertEquals(WAIT, Supervision.decide(Records.spec("sha256:aa"), twice, GONE, T0.plusSeconds(2)));
    }

    static Stream<Arguments> stopEnds() {
        List<Long> none = List.of();
        return Stream.of(
                Arguments.of("the shim and its group end on TERM", ADOPT, true, true, 0, none, "graceful", null),
                Arguments.of("the shim ends on TERM, a worker left in its group needs KILL", ADOPT, true, true, 1, none, "killed", null),
                Arguments.of("the shim needs KILL", ADOPT, false, true, 0, none, "killed", null),
                Arguments.of("the shim outlives TERM and KILL", ADOPT, false, false, 0, none, "not stopped",
                        "its shim (pid 40) outlived TERM and KILL"),
                Arguments.of("a worker left in the group outlives KILL", ADOPT, true, true, 2, List.of(41L, 43L), "not stopped",
                        "what it left in its process group 40 (pids 41, 43) outlived TERM and KILL"),
                Arguments.of("the shim had ended, its group is empty", GONE, true, true, 0, none, "not running", null),
                Arguments.of("the shim had ended, what it left outlives KILL", GONE, true, true, 1, List.of(41L), "not stopped",
                        "what it left in its process group 40 (pids 41) outlived TERM and KILL"),
                Arguments.of("the pid is another process's", FOREIGN, true, true, 0, none, "foreign (not signalled)", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stopEnds")
    void aStopIsDoneOnlyWhenTheShimAndItsWholeGroupAreGone(String name, Identity.Verdict before, boolean onTerm, boolean ended,
                                                           int afterTerm, List<Long> afterKill, String how, String failure) {
        assertEquals(new Supervision.StopEnd(how, failure), Supervision.stopEnd(before, 40, onTerm, ended, afterTerm, afterKill));
    }

    @Test
    void exitStatusReadsTheShimsWaitValue() {
        assertEquals("exit 0", ExitStatus.fromWait(0, "x").describe());
        assertEquals("exit 1", ExitStatus.fromWait(1, "x").describe());
        assertEquals("exit 127", ExitStatus.fromWait(127, "x").describe());
        assertEquals("signal 15", ExitStatus.fromWait(143, "x").describe());
        assertEquals("signal 9", ExitStatus.fromWait(137, "x").describe());
        assertEquals("exit 255", ExitStatus.fromWait(255, "x").describe());
    }
}
