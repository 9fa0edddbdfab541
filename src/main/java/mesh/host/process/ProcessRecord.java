package mesh.host.process;

import java.util.List;

/**
 * ProcessRecord is what the supervisor keeps of one component on disk, so that a restarted agent knows its
 * processes again: the spec, the identity of the running copy (pid, start time, boot id, command line,
 * spec digest — the pid alone is not an identity, it is reused) and the history the status reports
 * (restarts, consecutive quick failures, last exit, when the next start is due, a launch error).
 *
 * <p>{@code pid} is 0 when no copy runs. {@code stopped} is set by an explicit stop: a stopped component
 * is not restarted until it is applied again.
 */
public record ProcessRecord(
        ProcessSpec spec,
        long pid,
        long startTime,
        String bootId,
        List<String> cmdline,
        String digest,
        String startedAt,
        int restarts,
        int failures,
        ExitStatus lastExit,
        String nextStartAt,
        boolean stopped,
        String launchError) {

    public ProcessRecord {
        cmdline = cmdline == null ? List.of() : List.copyOf(cmdline);
    }

    public String component() {
        return spec.component();
    }

    public boolean hasProcess() {
        return pid > 0;
    }

    ProcessRecord running(long pid, long startTime, String bootId, List<String> cmdline, String startedAt, int restarts) {
        return new ProcessRecord(spec, pid, startTime, bootId, cmdline, spec.digest(), startedAt, restarts, failures, lastExit,
                null, false, null);
    }

    ProcessRecord ended(ExitStatus exit, int failures, String nextStartAt) {
        return new ProcessRecord(spec, 0, 0, null, List.of(), digest, startedAt, restarts, failures, exit, nextStartAt,
                stopped, launchError);
    }

    ProcessRecord withStopped(boolean stopped) {
        return new ProcessRecord(spec, pid, startTime, bootId, cmdline, digest, startedAt, restarts, failures, lastExit,
                stopped ? null : nextStartAt, stopped, launchError);
    }

    ProcessRecord failedLaunch(String error, int failures, String nextStartAt, int restarts) {
        return new ProcessRecord(spec, 0, 0, null, List.of(), spec.digest(), startedAt, restarts, failures, lastExit,
                nextStartAt, false, error);
    }

    /** The same history for a new spec: a new spec starts at once, its backoff forgotten. */
    ProcessRecord forSpec(ProcessSpec next) {
        return new ProcessRecord(next, pid, startTime, bootId, cmdline, digest, startedAt, restarts, 0, lastExit, null,
                false, null);
    }

    static ProcessRecord fresh(ProcessSpec spec) {
        return new ProcessRecord(spec, 0, 0, null, List.of(), spec.digest(), null, 0, 0, null, null, false, null);
    }
}
