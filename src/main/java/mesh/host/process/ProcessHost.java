package mesh.host.process;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * ProcessHost is the supervisor's one edge to the operating system: read {@code /proc}, start a command
 * detached, send a signal. {@link LinuxProcessHost} is the real one.
 */
public interface ProcessHost {

    /** What {@code /proc/PID} says, or empty when no such process exists. */
    Optional<ProcInfo> inspect(long pid);

    /** Every pid /proc lists now (to find a copy that was started but never recorded). */
    java.util.List<Long> pids();

    /** This boot's id ({@code /proc/sys/kernel/random/boot_id}). */
    String bootId();

    /** Starts the command with stdin from /dev/null and stdout and stderr appended to {@code log}; returns its pid. */
    long launch(LaunchCommand command, Path log) throws IOException;

    /** Sends {@code signal} (TERM, KILL) to the process {@code pid}, or to its whole group when {@code group}. */
    void signal(long pid, String signal, boolean group);
}
