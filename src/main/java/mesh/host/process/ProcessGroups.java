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

    /** KILL_TAKES bounds the wait for a process to be gone after KILL; what is still there then outlived it. */
    static final Duration KILL_TAKES = Duration.ofSeconds(5);

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
     * endRemnants ends what is left of the ended shim's process group: TERM to the group, KILL after the stop
     * timeout, then up to {@link #KILL_TAKES} for the group to empty, and says what was left at each step. The shim
     * forwards TERM to its child alone, so a worker the component left in its group (a script's {@code worker &
     * wait}) outlives the shim; it must end before the copy counts as stopped, or it runs on beside the next copy,
     * writing its data. The group is signalled whole, so a child forked after a look ends too, and only right after a
     * look found its number still ours ({@link Identity#remnants}: members left and no other process holds the number).
     */
    GroupEnd endRemnants(ProcessRecord record) {
        if (remnants(record).isEmpty()) {
            return GroupEnd.EMPTY;
        }
        List<ProcInfo> afterTerm = signalAndWait(record, "TERM", Duration.ofMillis(record.spec().stopTimeoutMillis()));
        List<ProcInfo> afterKill = afterTerm.isEmpty() ? afterTerm : signalAndWait(record, "KILL", KILL_TAKES);
        return new GroupEnd(afterTerm.size(), afterKill.stream().map(ProcInfo::pid).toList());
    }

    /**
     * GroupEnd is what endRemnants left of a group: how many processes were still there after TERM and the stop
     * timeout ({@code afterTerm}), and the pids still there after KILL ({@code afterKill}).
     */
    record GroupEnd(int afterTerm, List<Long> afterKill) {

        static final GroupEnd EMPTY = new GroupEnd(0, List.of());

        GroupEnd {
            afterKill = List.copyOf(afterKill);
        }
    }

    private List<ProcInfo> signalAndWait(ProcessRecord record, String signal, Duration limit) {
        if (!remnants(record).isEmpty()) {
            host.signal(record.pid(), signal, true);
        }
        until(limit, poll, () -> remnants(record).isEmpty());
        return remnants(record);
    }

    private List<ProcInfo> remnants(ProcessRecord record) {
        return Identity.remnants(record, host.inspect(record.pid()), allProcesses(), bootId);
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
