package mesh.install;

import mesh.wire.CallFailure;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mesh.controller.AgentClient;
import mesh.model.Node;
import mesh.model.Poll;
import mesh.plan.AgentUnit;
import mesh.wire.HostStatus;

/**
 * AgentSetup installs this mesh on the machine and starts its host agent: the app folder copied
 * into the state dir with a launcher {@code bin/mesh} (also the controller's bundle), the agent's
 * {@code host.env} (0600) and unit, then systemd starts it; where systemd is not PID 1 (a
 * container, CI) the agent is started detached (setsid), logging into the state dir, and the
 * installer says so.
 */
public final class AgentSetup {

    private final InstallOptions o;
    private final java.util.function.Consumer<String> say;

    public AgentSetup(InstallOptions o, java.util.function.Consumer<String> say) {
        this.o = o;
        this.say = say;
    }

    public Path app() {
        return o.stateDir().resolve("app");
    }

    public Path launcher() {
        return app().resolve("bin/mesh");
    }

    public Path envFile() {
        return o.configDir().resolve(AgentUnit.SETTINGS_FILE);
    }

    public static boolean systemdRuns() {
        return Files.isDirectory(Path.of("/run/systemd/system"));
    }

    /** Copies the running mesh into the state dir, writes the settings and unit, starts the agent and waits for it. */
    public void install() {
        try {
            stopRecorded();
            copyApp();
            Files.createDirectories(o.configDir());
            Map<String, String> settings = AgentUnit.settings(o.node(), o.address(), o.engine(), o.stateDir().toString(),
                    o.moduleNetworks());
            settings.putAll(o.tls().serveEnv("agent"));   // HTTPS only, calls only from the controller (docs/trust.md)
            write(envFile(), AgentUnit.envFile(settings), "rw-------");
            Path unit = o.configDir().resolve(AgentUnit.UNIT_NAME);
            write(unit, AgentUnit.unit(launcher().toString(), envFile().toString(), o.address()), "rw-r--r--");
            if (systemdRuns()) {
                run(List.of("systemctl", "link", unit.toString()));
                run(List.of("systemctl", "daemon-reload"));
                run(List.of("systemctl", "enable", "--now", AgentUnit.UNIT_NAME));
                say.accept("      the agent runs under systemd as " + AgentUnit.UNIT_NAME);
            } else {
                long pid = startDetached();
                say.accept("      systemd is not running here: started the agent detached (pid " + pid + ", log "
                        + o.stateDir().resolve("agent.log") + "); " + unit + " is written for a machine that has it");
            }
        } catch (IOException e) {
            throw new InstallFailure("cannot install the agent: " + e.getMessage(), e);
        }
        awaitAgent(Duration.ofSeconds(60));
    }

    /**
     * On a rerun after the agent step: an agent that does not answer (killed, the machine
     * restarted without systemd) is started again, as systemd would, and waited for.
     */
    public void revive() {
        try {
            answered(() -> client().statusQuickly(node()));
            return;
        } catch (RuntimeException down) {
            // not answering: start it again below, unless the agent this step started still runs
        }
        java.util.Optional<ProcessHandle> running = systemdRuns() ? java.util.Optional.empty() : recorded(o.stateDir());
        if (running.isPresent()) {
            // slow to answer (a loaded machine), not gone: a second agent would only fail on its port, and its pid,
            // recorded over this one's, would leave this one unknown to uninstall
            say.accept("      the host agent (pid " + running.get().pid() + ") runs but did not answer at once: waiting for it");
            awaitAgent(Duration.ofSeconds(60));
            return;
        }
        try {
            if (systemdRuns()) {
                run(List.of("systemctl", "restart", AgentUnit.UNIT_NAME));
                say.accept("      the host agent did not answer: restarted " + AgentUnit.UNIT_NAME);
            } else {
                say.accept("      the host agent did not answer: started it again, detached (pid " + startDetached() + ")");
            }
        } catch (IOException e) {
            throw new InstallFailure("cannot start the host agent again: " + e.getMessage(), e);
        }
        awaitAgent(Duration.ofSeconds(60));
    }

    /** The seat as a node of the mesh, as the agent's settings name it. */
    public Node node() {
        return new Node(o.node(), o.address(), "https://" + o.address() + ":7701", o.publicDomain());
    }

    /**
     * A client of this machine's agent: on the seat with the controller's certificate (the installer
     * pushes the seat's first declarations itself), on a joining node trusting the mesh CA only, with
     * no certificate the agent answers to ({@link #awaitAgent}).
     */
    public AgentClient client() {
        mesh.trust.TlsDir tls = o.tls();
        if (Files.isRegularFile(tls.cert("controller"))) {
            return new AgentClient(tls.clientContext("controller"));
        }
        return new AgentClient(mesh.trust.TlsContexts.trusting(mesh.trust.Pem.certificate(tls.caCert())));
    }

    /**
     * Waits until the agent answers {@code GET /v1/status}, and returns its status: on the seat, whose
     * installer calls with the controller's certificate. A joining node holds no certificate its agent
     * answers to (the agent takes calls from the controller alone), so there the agent's refusal is
     * the proof that it runs, and null is returned: the refusal came over a TLS handshake checked
     * against the mesh CA and this node's address, which only this node's agent key passes
     * (docs/trust.md).
     */
    public HostStatus awaitAgent(Duration timeout) {
        AgentClient client = client();
        Poll.Result<HostStatus> r = until(timeout, Duration.ofMillis(300), () -> {
            try {
                return Poll.got(answered(() -> client.status(node())));
            } catch (RuntimeException e) {
                return Poll.notYet(e.getMessage());
            }
        });
        if (r instanceof Poll.Answered<HostStatus> a) {
            return a.value();
        }
        throw new InstallFailure("the host agent did not answer at " + node().agent() + " within " + timeout.toSeconds()
                + " s (" + ((Poll.TimedOut<HostStatus>) r).lastWhy() + "); its log: " + o.stateDir().resolve("agent.log"));
    }

    /** The agent's status, or null when it answered a joining node's installer with its refusal (see {@link #awaitAgent}). */
    private HostStatus answered(java.util.function.Supplier<HostStatus> ask) {
        try {
            return ask.get();
        } catch (CallFailure refused) {
            if (refused.status() == 401 && !Files.isRegularFile(o.tls().cert("controller"))) {
                return null;
            }
            throw refused;
        }
    }

    /** An agent this step started before (the installer was killed after it): ended before its app is replaced. */
    private void stopRecorded() {
        recorded(o.stateDir()).ifPresent(h -> end(h, Duration.ofSeconds(30)));
    }

    /** Ends an agent: TERM, then KILL if it has not ended after {@code grace}; returns once it has ended. */
    static void end(ProcessHandle h, Duration grace) {
        h.destroy();
        h.onExit().orTimeout(grace.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS).exceptionally(x -> {
            h.destroyForcibly();
            return h;
        }).join();
    }

    /**
     * The agent started detached for {@code stateDir} and recorded in its {@code agent.pid}, if it still runs
     * ({@code host serve}); empty without a record, or with an unreadable one.
     */
    static java.util.Optional<ProcessHandle> recorded(Path stateDir) {
        Path pidFile = stateDir.resolve("agent.pid");
        try {
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().arguments().map(a -> String.join(" ", a).contains("host serve")).orElse(false));
        } catch (IOException | NumberFormatException e) {
            return java.util.Optional.empty();   // no record, or an unreadable one: it names no process
        }
    }

    private long startDetached() throws IOException {
        return startDetached(launcher(), envFile(), o.stateDir());
    }

    /**
     * Starts the agent of {@code stateDir} detached, as {@code mesh install} does where systemd is not PID 1: its own
     * session (setsid, so it outlives its starter and any terminal), output appended to {@code agent.log}, its pid in
     * {@code agent.pid}; also how {@code mesh host upgrade-self} starts the new build's agent.
     */
    static long startDetached(Path launcher, Path envFile, Path stateDir) throws IOException {
        return startDetached(List.of(), launcher, envFile, stateDir);
    }

    /** As above, the command run through {@code prefix} (upgrade-self's {@code nsenter} into the agent's mount namespace). */
    static long startDetached(List<String> prefix, Path launcher, Path envFile, Path stateDir) throws IOException {
        File log = stateDir.resolve("agent.log").toFile();
        List<String> command = new java.util.ArrayList<>(prefix);
        command.addAll(List.of("setsid", launcher.toString(), "host", "serve", "--config", envFile.toString()));
        ProcessBuilder b = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        Process p = b.start();
        Files.writeString(stateDir.resolve("agent.pid"), p.pid() + "\n");
        return p.pid();
    }

    /** Copies the app folder this mesh runs from (or the native executable) and writes its launcher. */
    private void copyApp() throws IOException {
        Path from = RunningMesh.appFolder();
        Path to = app();
        deleteTree(to);
        String caches = from == null ? null : trainCaches(from);
        copyRunning(to, true);
        if (from != null && caches == null && AotCaches.supported()) {
            caches = new AotCaches(to, o.engine()).ensure();   // the app we run from is not ours to write
        }
        if (caches != null) {
            say.accept("      " + caches);
        }
    }

    /**
     * Copies the mesh this process runs (its app folder, or the native executable) into {@code to}, which must not
     * exist, with the launcher {@code bin/mesh}; the app folder's JDK AOT caches too when {@code caches} (they hold only
     * while the jars keep their mtimes, which the copy does). Also how {@code mesh upgrade} stages the build it
     * publishes and {@code mesh host upgrade-self} puts the new build beside the old.
     */
    public static void copyRunning(Path to, boolean caches) throws IOException {
        Path from = RunningMesh.appFolder();
        Files.createDirectories(to.resolve("bin"));
        if (from == null) {
            Files.copy(RunningMesh.executable(), to.resolve(RunningMesh.NATIVE_EXECUTABLE), StandardCopyOption.COPY_ATTRIBUTES);
            write(to.resolve("bin/mesh"), RunningMesh.nativeLauncherScript(), "rwxr-xr-x");
            return;
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                String rel = from.relativize(f).toString();
                if (rel.endsWith(AotCaches.TRAINING) || rel.startsWith("bin") || !caches && rel.endsWith(".aot")) {
                    continue;
                }
                Path t = to.resolve(rel);
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        write(to.resolve("bin/mesh"), RunningMesh.launcherScript(), "rwxr-xr-x");
    }

    /**
     * The JDK AOT caches of the app folder install runs from, trained there if missing or stale
     * ({@link AotCaches}: once per build, since a cache survives a copy that keeps mtimes, and every
     * install from this folder then copies them); null when that folder is not writable (the copy is
     * trained instead) or this Java has no such caches.
     */
    private String trainCaches(Path from) {
        if (!AotCaches.supported() || !Files.isWritable(from)) {
            return null;
        }
        return new AotCaches(from, o.engine()).ensure();
    }

    static void write(Path file, String text, String mode) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Deletes a folder and everything in it; nothing to do when it is not there. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    static void run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new InstallFailure(String.join(" ", command) + " failed: " + out.strip());
            }
        } catch (IOException e) {
            throw new InstallFailure("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InstallFailure("interrupted while running " + String.join(" ", command));
        }
    }

    /** {@link Poll#until} for the installer's waits: an interrupt ends the step as {@link InstallFailure} ("interrupted"). */
    static <T> Poll.Result<T> until(Duration limit, Duration every, java.util.function.Supplier<Poll.Ask<T>> ask) {
        try {
            return Poll.until(limit, every, ask);
        } catch (java.util.concurrent.CancellationException e) {
            throw new InstallFailure("interrupted");
        }
    }

    /** The variables a child mesh process must not inherit from the installer's environment. */
    static void clean(Map<String, String> env) {
        env.keySet().removeIf(k -> k.startsWith("MESH_"));
    }
}
