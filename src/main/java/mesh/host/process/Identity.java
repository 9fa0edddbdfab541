package mesh.host.process;

import java.util.List;
import java.util.Optional;

/**
 * Identity decides, from a record and what {@code /proc} says now, whether the recorded process is still
 * running. A pid alone proves nothing: after the process ends the kernel hands the pid to another one.
 * A process is ours only when the boot id, the start time (field 22 of {@code /proc/PID/stat}) and the whole
 * command line (which carries the component and its spec digest) all match, and it is the leader of its
 * own session (the shim runs under {@code setsid}). Only {@link Verdict#ADOPT} allows a signal.
 */
public final class Identity {

    /** ADOPT: our process runs. GONE: it ended (or the machine rebooted). FOREIGN: the pid is another process's. */
    public enum Verdict { ADOPT, GONE, FOREIGN }

    private Identity() {
    }

    public static Verdict judge(ProcessRecord record, Optional<ProcInfo> seen, String bootIdNow) {
        if (record == null || !record.hasProcess()) {
            return Verdict.GONE;
        }
        if (record.bootId() == null || !record.bootId().equals(bootIdNow)) {
            // recorded before this boot: whatever holds the pid now is not ours, and it must not be signalled
            return seen.isPresent() ? Verdict.FOREIGN : Verdict.GONE;
        }
        if (seen.isEmpty()) {
            return Verdict.GONE;
        }
        ProcInfo p = seen.get();
        if (p.startTime() != record.startTime()) {
            return Verdict.FOREIGN;
        }
        if (p.ended()) {
            return Verdict.GONE; // our shim, ended and not yet reaped: a zombie shows no command line
        }
        if (!p.cmdline().equals(record.cmdline()) || p.session() != p.pid()) {
            return Verdict.FOREIGN;
        }
        return Verdict.ADOPT;
    }

    /**
     * remnants are the processes left in the process group of our ended shim (it was killed alone, say): they
     * are ours and must end before a new copy starts, or two copies would run. A process group's number is
     * not handed out again while the group has members, so members of group PID are ours as long as no other
     * process holds PID itself (our own zombie may). Across a reboot nothing is ours.
     */
    public static List<ProcInfo> remnants(ProcessRecord record, Optional<ProcInfo> atPid, List<ProcInfo> all, String bootIdNow) {
        if (record == null || !record.hasProcess() || !bootIdNow.equals(record.bootId())) {
            return List.of();
        }
        if (atPid.isPresent() && !(atPid.get().ended() && atPid.get().startTime() == record.startTime())) {
            return List.of(); // PID is alive: ours (not ended) or another's, whose group this may now be
        }
        return all.stream().filter(p -> p.processGroup() == record.pid() && p.pid() != record.pid() && !p.ended()).toList();
    }
}
