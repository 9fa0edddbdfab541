package mesh.host.process;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Supervision holds the supervisor's decisions as pure functions of plain data and the time passed in:
 * what to do with a component given its spec, its record and the identity verdict, and how a record
 * changes when its process is found ended. {@link ProcessSupervisor} only carries them out.
 */
public final class Supervision {

    /**
     * KEEP: ours runs with this spec, touch nothing. REPLACE: ours runs with another spec, stop it and start
     * this one. START: nothing runs and a start is due. WAIT: nothing runs, the backoff is not over.
     */
    public enum Action { KEEP, REPLACE, START, WAIT }

    private Supervision() {
    }

    public static Action decide(ProcessSpec spec, ProcessRecord record, Identity.Verdict verdict, Instant now) {
        if (record == null) {
            return Action.START;
        }
        if (verdict == Identity.Verdict.ADOPT) {
            return spec.digest().equals(record.digest()) ? Action.KEEP : Action.REPLACE;
        }
        if (record.stopped() || !spec.digest().equals(record.spec().digest())) {
            return Action.START;
        }
        if (record.nextStartAt() == null || !now.isBefore(Instant.parse(record.nextStartAt()))) {
            return Action.START;
        }
        return Action.WAIT;
    }

    /**
     * ended is the record once its process is found ended at {@code endedAt}: the exit is kept, the identity
     * cleared, and the next start put off by the backoff (unless the component was stopped on purpose).
     */
    public static ProcessRecord ended(ProcessRecord record, ExitStatus exit, Instant endedAt, Backoff backoff) {
        if (record.stopped()) {
            return record.ended(exit, 0, null);
        }
        Duration ran = record.startedAt() == null ? Duration.ZERO
                : Duration.between(Instant.parse(record.startedAt()), endedAt);
        int failures = backoff.failuresAfter(record.failures(), ran);
        return record.ended(exit, failures, endedAt.plus(backoff.delay(failures)).toString());
    }

    /**
     * The wait the backoff put before the next start of {@code ended}, a record whose process ended or could not be
     * launched: the delay of the quick failures it records, as {@link #ended} and {@link #launchFailed} chose it.
     */
    public static Duration backoffBefore(ProcessRecord ended, Backoff backoff) {
        return backoff.delay(ended.failures());
    }

    /** Whether this start follows an end of the same spec (and so counts as a restart). */
    public static boolean isRestart(ProcessSpec spec, ProcessRecord record) {
        return record != null && !record.stopped() && record.spec().digest().equals(spec.digest())
                && (record.lastExit() != null || record.launchError() != null);
    }

    /**
     * StopEnd is how a stop went: {@code how} for its report (graceful, killed, not running, foreign (not signalled),
     * not stopped) and, when the copy did not end, {@code failure}, saying what outlived TERM and KILL.
     */
    public record StopEnd(String how, String failure) {
    }

    /**
     * stopEnd judges a stop from what each of its steps left: the verdict on the shim {@code before} it, whether
     * the shim ended on TERM and whether it ended at all (after KILL to its group), then what of its group was
     * still there after TERM ({@code groupAfterTerm}) and after KILL ({@code groupAfterKill}, pids) once the shim
     * had ended. The stop is done only when the shim and its whole group are gone: anything left would run beside
     * the next copy (a take's target, a replace's new spec) and write after the data was copied, so a failure
     * keeps the copy counted as running and the fence or replace that asked for the stop fails.
     */
    public static StopEnd stopEnd(Identity.Verdict before, long pid, boolean shimEndedOnTerm, boolean shimEnded,
                                  int groupAfterTerm, List<Long> groupAfterKill) {
        if (before == Identity.Verdict.FOREIGN) {
            return new StopEnd("foreign (not signalled)", null);
        }
        if (!shimEnded) {
            return new StopEnd("not stopped", "its shim (pid " + pid + ") outlived TERM and KILL");
        }
        if (!groupAfterKill.isEmpty()) {
            return new StopEnd("not stopped", "what it left in its process group " + pid + " (pids "
                    + groupAfterKill.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ") outlived TERM and KILL");
        }
        if (before == Identity.Verdict.GONE) {
            return new StopEnd("not running", null);
        }
        return new StopEnd(shimEndedOnTerm && groupAfterTerm == 0 ? "graceful" : "killed", null);
    }

    /** The record after a launch that failed before any process ran (the executable is missing, say). */
    public static ProcessRecord launchFailed(ProcessSpec spec, ProcessRecord record, String error, Instant now, Backoff backoff) {
        ProcessRecord base = record == null ? ProcessRecord.fresh(spec) : record.forSpec(spec);
        boolean sameSpec = record != null && record.spec().digest().equals(spec.digest());
        int failures = (sameSpec ? record.failures() : 0) + 1;
        int restarts = base.restarts() + (isRestart(spec, record) ? 1 : 0);
        return base.failedLaunch(error, failures, now.plus(backoff.delay(failures)).toString(), restarts);
    }
}
