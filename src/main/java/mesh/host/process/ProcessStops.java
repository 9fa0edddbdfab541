package mesh.host.process;

import java.time.Duration;
import java.time.Instant;
import mesh.host.process.ProcessSupervisor.Stopped;

/**
 * ProcessStops carries out a stop of one recorded copy: TERM to the shim, KILL to its group after the stop timeout;
 * once the shim is gone, TERM and then KILL to what is left of its group ({@link ProcessGroups#endRemnants}). The
 * shim forwards TERM to its child alone: a worker that child started ({@code worker & wait}) is no child of the
 * shim and would outlive a stop that looked only at the shim, writing the component's data after a take's final
 * copy, beside the take's target. Each signal goes right after an identity check; {@link Supervision#stopEnd}
 * judges what was left, and the {@link ProcessSupervisor} acts on its verdict.
 */
final class ProcessStops {

    private final ProcessHost host;
    private final ProcessGroups groups;
    private final ProcessRecords records;
    private final String bootId;
    private final Duration poll;

    ProcessStops(ProcessHost host, ProcessGroups groups, ProcessRecords records, String bootId, Duration poll) {
        this.host = host;
        this.groups = groups;
        this.records = records;
        this.bootId = bootId;
        this.poll = poll;
    }

    /** Stops the copy {@code record} names; its {@link Stopped#failure} says what outlived TERM and KILL, if anything. */
    Stopped stop(ProcessRecord record) {
        Identity.Verdict before = verdict(record);
        long started = System.nanoTime();
        boolean endedOnTerm = true;
        boolean ended = true;
        if (before == Identity.Verdict.ADOPT) {
            host.signal(record.pid(), "TERM", false);
            endedOnTerm = awaitGone(record, Duration.ofMillis(record.spec().stopTimeoutMillis()));
            if (!endedOnTerm) {
                if (verdict(record) == Identity.Verdict.ADOPT) {
                    host.signal(record.pid(), "KILL", true);
                }
                ended = awaitGone(record, ProcessGroups.KILL_TAKES);
            }
        }
        // a foreign pid is never signalled, nor its group; an ended shim (this stop's or an earlier end) may have left one
        ProcessGroups.GroupEnd group = before != Identity.Verdict.FOREIGN && ended ? groups.endRemnants(record)
                : ProcessGroups.GroupEnd.EMPTY;
        Supervision.StopEnd end = Supervision.stopEnd(before, record.pid(), endedOnTerm, ended, group.afterTerm(), group.afterKill());
        ExitStatus exit = before != Identity.Verdict.ADOPT ? null
                : endedOnTerm ? records.exit(record, Instant.now()).status() : ExitStatus.signalled(9, Instant.now().toString());
        return new Stopped(record.component(), end.how(), record.pid(), elapsed(started), exit, end.failure());
    }

    private Identity.Verdict verdict(ProcessRecord record) {
        return Identity.judge(record, host.inspect(record.pid()), bootId);
    }

    private boolean awaitGone(ProcessRecord record, Duration timeout) {
        return ProcessGroups.until(timeout, poll, () -> verdict(record) != Identity.Verdict.ADOPT)
                || verdict(record) != Identity.Verdict.ADOPT;
    }

    private static long elapsed(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos).toMillis();
    }
}
