package mesh.install;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import mesh.model.Poll;

/**
 * TempController is the controller the installer runs as its own child ({@code mesh controller
 * serve} on a loopback port, over the store) to make the seat a node, add the built-in catalogue
 * and push: the push that makes the seat's agent run the permanent controller. Its pid is kept in
 * the state dir, so a rerun after the installer was killed ends the one left behind first.
 */
public final class TempController {

    private final Path pidFile;
    private final Path log;

    public TempController(Path stateDir) {
        this.pidFile = stateDir.resolve("install/temp-controller.pid");
        this.log = stateDir.resolve("install/temp-controller.log");
    }

    /** Starts it and returns its API's URL; one left by an earlier run is ended first. */
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
            Process p = b.start();
            Files.writeString(pidFile, p.pid() + "\n");
        } catch (IOException e) {
            throw new InstallFailure("cannot start the temporary controller: " + e.getMessage(), e);
        }
        return (env.containsKey("MESH_TLS_CERT") ? "https" : "http") + "://127.0.0.1:" + port;
    }

    /** Ends the temporary controller, if one runs (SIGTERM, then SIGKILL after 20 s). */
    public void stop() {
        Optional<ProcessHandle> p = running();
        if (p.isEmpty()) {
            return;
        }
        p.get().destroy();
        try {
            p.get().onExit().get(20, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            p.get().destroyForcibly();
        }
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
     * it runs (one that exits fails the wait at once, naming its log).
     */
    public void awaitAnswer(SeatApi api, Duration timeout) {
        await(api, timeout, log, this::alive);
    }

    /** Waits until the controller at {@code api} answers a read. */
    public static void await(SeatApi api, Duration timeout, Path log) {
        await(api, timeout, log, () -> true);
    }

    private static void await(SeatApi api, Duration timeout, Path log, java.util.function.BooleanSupplier alive) {
        RuntimeException[] last = {null};
        Poll.Result<Boolean> r = AgentSetup.until(timeout, Duration.ofMillis(300), () -> {
            if (!alive.getAsBoolean()) {
                throw new InstallFailure("the temporary controller at " + api.base() + " exited before it answered"
                        + (last[0] == null ? "" : " (" + last[0].getMessage() + ")") + "; its log: " + log);
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
