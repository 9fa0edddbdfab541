package mesh.host.process;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import mesh.model.Poll;

/**
 * ProcessGroups finds and ends the supervisor's processes by what /proc shows, never by a remembered pid
 * alone: a running copy of a shim no record names (to adopt, never start a second), stray copies of a
 * component under another spec, and what is left of an ended shim's process group. Each signal goes right
 * after checking the process is still the one meant.
 */
final class ProcessGroups {

    private final ProcessHost host;
    private final String bootId;
    private final Duration poll;

    ProcessGroups(ProcessHost host, String bootId, Duration poll) {
        this.host = host;
        this.bootId = bootId;
        this.poll = poll;
    }

    /** A running copy of this very shim command line (its own session), e.g. one an agent started and died before recording. */
    Optional<ProcInfo> findRunning(List<String> shimCmdline) {
        return allProcesses().stream()
                .filter(p -> !p.ended() && p.session() == p.pid() && p.cmdline().equals(shimCmdline))
                .findFirst();
    }

    /**
     * endStrayCopies ends the copies of this component's shim that run under another spec and that no record
     * names (an agent died between starting one and recording it, or the record was lost or holds another
     * pid): without this they would hold its port, and two copies would run. They are ours by their command
     * line, which names this component and this state dir's exit file; TERM, then KILL to their group after
     * the stop timeout, each signal right after checking the process is still that copy.
     */
    void endStrayCopies(ProcessSpec spec, List<String> shimCmdline) {
        List<ProcInfo> strays = allProcesses().stream()
                .filter(p -> !p.ended() && p.session() == p.pid() && p.cmdline().size() > 6
                        && p.cmdline().subList(0, 5).equals(shimCmdline.subList(0, 5))
                        && p.cmdline().get(6).equals(shimCmdline.get(6)))
                .toList();
        for (String signal : List.of("TERM", "KILL")) {
            for (ProcInfo p : strays) {
                if (host.inspect(p.pid()).filter(now -> sameCopy(now, p)).isPresent()) {
                    host.signal(p.pid(), signal, "KILL".equals(signal));
                }
            }
            until(Duration.ofMillis(spec.stopTimeoutMillis()), poll,
                    () -> strays.stream().noneMatch(p -> host.inspect(p.pid()).filter(now -> sameCopy(now, p)).isPresent()));
        }
    }

    private static boolean sameCopy(ProcInfo now, ProcInfo before) {
        return !now.ended() && now.startTime() == before.startTime() && now.cmdline().equals(before.cmdline());
    }

    /**
     * endRemnants ends what is left of the ended shim's process group (TERM, then KILL after the stop timeout),
     * so the copy about to start is the only one; each signal after checking the process is still in that group.
     */
    void endRemnants(ProcessRecord record) {
        List<ProcInfo> left = Identity.remnants(record, host.inspect(record.pid()), allProcesses(), bootId);
        if (left.isEmpty()) {
            return;
        }
        for (String signal : List.of("TERM", "KILL")) {
            for (ProcInfo p : left) {
                if (host.inspect(p.pid()).filter(now -> stillRemnant(now, p)).isPresent()) {
                    host.signal(p.pid(), signal, false);
                }
            }
            until(Duration.ofMillis(record.spec().stopTimeoutMillis()), poll,
                    () -> left.stream().noneMatch(p -> host.inspect(p.pid()).filter(now -> stillRemnant(now, p)).isPresent()));
        }
    }

    private static boolean stillRemnant(ProcInfo now, ProcInfo before) {
        return !now.ended() && now.startTime() == before.startTime() && now.processGroup() == before.processGroup();
    }

    private List<ProcInfo> allProcesses() {
        return host.pids().stream().map(host::inspect).flatMap(Optional::stream).toList();
    }

    /**
     * Whether {@code done} said yes within {@code limit}, asked every {@code every} ({@link Poll#until}); an interrupt
     * ends the supervisor's wait with an exception (the thread stays interrupted).
     */
    static boolean until(Duration limit, Duration every, BooleanSupplier done) {
        try {
            return Poll.until(limit, every, done);
        } catch (java.util.concurrent.CancellationException e) {
            throw new IllegalStateException("interrupted while supervising processes", e);
        }
    }
}
