package mesh.install;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import mesh.model.Poll;
import mesh.plan.LogTail;
import mesh.plan.TempControllers;

/**
 * TempController is the controller the installer runs as its own child ({@code mesh controller
 * serve} on a loopback port, over the store) to make the seat a node, add the built-in catalogue
 * and push: the push that makes the seat's agent run the permanent controller. Its pid is kept in
 * the state dir (the pivot checks that one is fenced); before it starts one, and at the pivot, the installer ends
 * every temporary controller of this install that runs, recorded or not ({@link #stop}), so a rerun after a kill
 * never has an earlier run's starting beside its own. Its output goes to
 * {@code install/temp-controller.log} in the state dir, which each start appends to after a line of its own
 * ({@link #START_MARK}) and which is kept: one that exits before it answers fails the step with the last lines of
 * this start's output, and the operator finds the rest there.
 */
public final class TempController {

    /** How each start's lines begin in the log, so an error quotes this start's output and no earlier one's. */
    static final String START_MARK = "--- mesh install starts a temporary controller";

    /** How many of its last lines an error quotes of a temporary controller that exited before it answered. */
    static final int TAIL_LINES = 20;

    private final Path pidFile;
    private final Path log;
    /** The install's app folder, which its temporary controllers run from ({@link TempControllers}). */
    private final Path app;
    /** The process this very installer started (null before {@link #start}): its exit status for the error. */
    private Process started;

    public TempController(Path stateDir) {
        this.pidFile = stateDir.resolve("install/temp-controller.pid");
        this.log = stateDir.resolve("install/temp-controller.log");
        this.app = stateDir.toAbsolutePath().normalize().resolve("app");
    }

    /** Starts it and returns its API's URL; any left by an earlier run are ended first ({@link #stop}). */
    public String start(Path launcher, Map<String, String> env) {
        stop();
        int port = freePort();
        ProcessBuilder b = new ProcessBuilder(launcher.toString(), "controller", "serve")
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        AgentSetup.clean(b.environment());
        b.environment().putAll(env);
        b.environment().put("MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port);
        try {
            Files.writeString(log, START_MARK + " on 127.0.0.1:" + port + " at " + Instant.now() + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            Process p = b.start();
            started = p;
            InstallTestHold.at(InstallTestHold.TEMP_CONTROLLER_STARTED);
            // whole or not at all: a kill while writing leaves the earlier record, never a torn one
            Path next = pidFile.resolveSibling(pidFile.getFileName() + ".next");
            Files.writeString(next, p.pid() + "\n");
            Files.move(next, pidFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new InstallFailure("cannot start the temporary controller: " + e.getMessage(), e);
        }
        return (env.containsKey("MESH_TLS_CERT") ? "https" : "http") + "://127.0.0.1:" + port;
    }

    /**
     * Ends every temporary controller of this install that runs: the one whose pid was written down, and any that an
     * installer killed before it wrote the pid left (found by what it runs, {@link TempControllers}). SIGTERM, SIGKILL
     * to those still running after 20 s, and a failure naming any still running 10 s later: the next one starts only
     * once the earlier are gone. The pids it ended.
     */
    public List<Long> stop() {
        List<ProcessHandle> left = leftBehind();
        if (left.isEmpty()) {
            return List.of();
        }
        left.forEach(ProcessHandle::destroy);
        List<ProcessHandle> stubborn = awaitExit(left, Duration.ofSeconds(20));
        stubborn.forEach(ProcessHandle::destroyForcibly);
        List<ProcessHandle> still = awaitExit(stubborn, Duration.ofSeconds(10));
        if (!still.isEmpty()) {
            throw new InstallFailure("cannot end the temporary controller (pid " + still.stream().map(h -> Long.toString(h.pid()))
                    .collect(Collectors.joining(", ")) + ") 30 s after SIGTERM and SIGKILL; end it and run the install again");
        }
        return left.stream().map(ProcessHandle::pid).toList();
    }

    /** This install's temporary controllers that run now, recorded or not. */
    private List<ProcessHandle> leftBehind() {
        List<TempControllers.Seen> seen = ProcessHandle.allProcesses().filter(h -> h.pid() != ProcessHandle.current().pid())
                .map(h -> new TempControllers.Seen(h.pid(), h.info().command().orElse(""),
                        List.of(h.info().arguments().orElse(new String[0]))))
                .toList();
        return TempControllers.of(seen, app.toString()).stream().map(ProcessHandle::of).flatMap(Optional::stream)
                .filter(ProcessHandle::isAlive).toList();
    }

    /** Those of {@code processes} still running after {@code limit}. */
    private static List<ProcessHandle> awaitExit(List<ProcessHandle> processes, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        for (ProcessHandle h : processes) {
            try {
                h.onExit().get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // still running: returned below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InstallFailure("interrupted while ending the temporary controller");
            }
        }
        return processes.stream().filter(ProcessHandle::isAlive).toList();
    }

    /** The temporary controller, if its recorded pid is alive and is a mesh controller. */
    public Optional<ProcessHandle> running() {
        return recorded().filter(ProcessHandle::isAlive)
                .filter(h -> h.info().arguments().map(a -> String.join(" ", a).contains("controller serve")).orElse(false));
    }

    /**
     * Whether the process this installer started last (its recorded pid) still runs; without {@link #running}'s look
     * at its arguments, so that a wait never ends early on a command line the system would not show.
     */
    private boolean alive() {
        return recorded().map(ProcessHandle::isAlive).orElse(false);
    }

    /** The process of the recorded pid, if there is a record and such a process. */
    private Optional<ProcessHandle> recorded() {
        try {
            if (!Files.isRegularFile(pidFile)) {
                return Optional.empty();
            }
            return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    public Path log() {
        return log;
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new InstallFailure("no free port on 127.0.0.1 for the temporary controller: " + e.getMessage(), e);
        }
    }

    /**
     * Waits until this temporary controller answers a read at {@code api}: at most {@code timeout}, and no longer than
     * it runs (one that exits fails the wait at once, with its exit status and the last lines of its log).
     */
    public void awaitAnswer(SeatApi api, Duration timeout) {
        await(api, timeout, log, this::alive, why -> exited(api, why));
    }

    /** Waits until the controller at {@code api} answers a read. */
    public static void await(SeatApi api, Duration timeout, Path log) {
        await(api, timeout, log, () -> true, why -> why);
    }

    /** The failure of a temporary controller that exited before it answered: its pid, status, and what it said. */
    private String exited(SeatApi api, String why) {
        Process p = started;
        String status = p == null ? "" : exitStatus(p).map(code -> " with status " + code).orElse("");
        List<String> tail = tail();
        return "the temporary controller" + (p == null ? "" : " (pid " + p.pid() + ")") + " at " + api.base() + " exited" + status
                + " before it answered" + (why.isEmpty() ? "" : " (" + why + ")") + "; "
                + (tail.isEmpty() ? "it wrote nothing to its log " + log
                        : "the last " + tail.size() + " lines of its log " + log + ":\n    " + String.join("\n    ", tail));
    }

    /**
     * The exit status of {@code p}, found gone by its pid: the JDK's reaper may not have handed the status to the
     * {@link Process} yet (its pid already reaped, {@code isAlive} still true for a moment), so it is waited for briefly;
     * empty when it is still not there (the pid record gone, the process running on).
     */
    private static Optional<Integer> exitStatus(Process p) {
        try {
            return p.waitFor(2, TimeUnit.SECONDS) ? Optional.of(p.exitValue()) : Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** This start's last {@link #TAIL_LINES} lines of the log (none when it cannot be read). */
    List<String> tail() {
        try {
            return LogTail.sinceLast(Files.readAllLines(log), START_MARK, TAIL_LINES);
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    private static void await(SeatApi api, Duration timeout, Path log, BooleanSupplier alive,
            UnaryOperator<String> exited) {
        RuntimeException[] last = {null};
        Poll.Result<Boolean> r = AgentSetup.until(timeout, Duration.ofMillis(300), () -> {
            if (!alive.getAsBoolean()) {
                throw new InstallFailure(exited.apply(last[0] == null ? "" : last[0].getMessage()));
            }
            try {
                api.nodes();
                return Poll.got(true);
            } catch (RuntimeException e) {
                last[0] = e;
                return Poll.notYet(e.getMessage());
            }
        });
        if (r instanceof Poll.TimedOut<Boolean>) {
            throw new InstallFailure("the controller at " + api.base() + " did not answer within " + timeout.toSeconds() + " s ("
                    + (last[0] == null ? "" : last[0].getMessage()) + ")" + (log == null ? "" : "; its log: " + log));
        }
    }
}
