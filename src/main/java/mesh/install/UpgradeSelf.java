package mesh.install;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import mesh.model.Poll;
import mesh.plan.AgentUnit;

/**
 * UpgradeSelf is {@code mesh host upgrade-self}: run by a node's agent as the process of the one-off module
 * {@code mesh upgrade} assigns there, from the new build's bundle, it moves that agent to the build it is
 * (docs/upgrade.md). It finds the installed mesh it was unpacked under ({@code <state>/host/bundles/unpacked/<hex>}:
 * the state folder {@code mesh install} made, with the agent's app in {@code <state>/app}), puts the new build beside
 * the old ({@code app.next}, then {@code app} → {@code app.previous} and {@code app.next} → {@code app}), and restarts the
 * agent: {@code systemctl restart} where systemd runs (the unit's {@code KillMode=process} leaves containers and
 * processes), else the detached agent is sent TERM and started again as {@code mesh install} starts it. The new agent
 * adopts every container and process. Until the new agent listens the old app is kept; if it does not within
 * {@link #LISTENS}, the old app is put back and the old agent started again.
 *
 * <p>It never exits once the agent runs the new build (the supervisor would start it again); when the installed app
 * already is its build it does nothing and waits, so a restarted copy changes nothing. A failure exits 1 naming why:
 * {@code mesh upgrade} reads that from the agent's status and stops.
 */
public final class UpgradeSelf {

    /** How long the new agent has to listen on its address before the old is put back. */
    static final Duration LISTENS = Duration.ofSeconds(90);
    /** How long the old agent has to end after TERM before it is killed. */
    static final Duration ENDS = Duration.ofSeconds(45);

    private final Consumer<String> say;
    private final java.util.function.Function<Path, Map<String, String>> settings;

    /** {@code settings} reads an agent's settings file (host.env); {@code say} takes each line of progress. */
    public UpgradeSelf(java.util.function.Function<Path, Map<String, String>> settings, Consumer<String> say) {
        this.settings = settings;
        this.say = say;
    }

    /** Moves the agent this runs under to this build; true when it did or had nothing to do, false when it put the old back. */
    public boolean run() {
        Path mine = mine();
        Installed at = Installed.around(mine, settings);
        say.accept("this build: " + mine + "; the agent's: " + at.app() + " (settings " + at.envFile() + ")");
        try {
            if (sameTree(mine, at.app())) {
                say.accept("the agent's app already is this build: nothing to do");
                return true;
            }
        } catch (IOException e) {
            throw new InstallFailure("cannot compare this build with the agent's app " + at.app() + ": " + e.getMessage(), e);
        }
        Path next = at.state().resolve("app.next");
        Path previous = at.state().resolve("app.previous");
        try {
            AgentSetup.deleteTree(next);
            AgentSetup.copyRunning(next, false);
        } catch (IOException e) {
            throw new InstallFailure("cannot put the new build beside the old one in " + at.state() + ": " + e + "; nothing was changed");
        }
        try {
            AgentSetup.deleteTree(previous);
            Files.move(at.app(), previous);
            Files.move(next, at.app());
        } catch (IOException e) {
            throw new InstallFailure("cannot swap the agent's app for the new build in " + at.state() + ": " + e);
        }
        say.accept("the new build is in " + at.app() + " (the old one in " + previous + "); restarting the agent");
        restart(at);
        if (listens(at)) {
            say.accept("the agent runs the new build and listens on " + at.listen());
            return true;
        }
        say.accept("the new agent did not listen on " + at.listen() + " within " + LISTENS.toSeconds() + " s (its log: "
                + at.state().resolve("agent.log") + "); putting the old build back");
        try {
            Path failed = at.state().resolve("app.failed");
            AgentSetup.deleteTree(failed);
            stop(at);
            Files.move(at.app(), failed);
            Files.move(previous, at.app());
        } catch (IOException e) {
            throw new InstallFailure("the new agent did not start, and the old build could not be put back in " + at.app() + ": " + e);
        }
        restart(at);
        say.accept(listens(at) ? "the old agent runs again" : "the old agent did not listen either; see " + at.state().resolve("agent.log"));
        return false;
    }

    /** The app folder this runs from: the bundle's folder (the app), or the native executable's folder's parent. */
    private static Path mine() {
        Path app = RunningMesh.appFolder();
        return app != null ? app : RunningMesh.executable().getParent().getParent();   // the bundle: bin/mesh-native
    }

    /** Restarts the agent: systemd's unit, else the detached agent (TERM to the one running, then started as install starts it). */
    private void restart(Installed at) {
        if (AgentSetup.systemdRuns()) {
            AgentSetup.run(List.of("systemctl", "restart", AgentUnit.UNIT_NAME));
            return;
        }
        List<String> outside = outsideMyMounts();
        stop(at);
        try {
            long pid = AgentSetup.startDetached(outside, at.app().resolve("bin/mesh"), at.envFile(), at.state());
            say.accept("started the agent detached (pid " + pid + ")");
        } catch (IOException e) {
            throw new InstallFailure("cannot start the agent: " + e.getMessage(), e);
        }
    }

    /**
     * The prefix that runs a command in the mount namespace the agent runs in, not this process's: a supervised process
     * runs in a mount namespace of its own, its hosts file bound over /etc/hosts (docs/processes.md), and an agent
     * started in it would see that file, which is deleted once this one-off is removed; every process that agent
     * started would then fail to bind its own. The nearest ancestor in another mount namespace is the shim, which runs
     * in the agent's; {@code nsenter --mount} into it. Empty when no ancestor is in another (nothing to leave).
     */
    private static List<String> outsideMyMounts() {
        String mine = mountNamespace(ProcessHandle.current().pid());
        for (ProcessHandle h = ProcessHandle.current().parent().orElse(null); h != null; h = h.parent().orElse(null)) {
            String theirs = mountNamespace(h.pid());
            if (theirs != null && !theirs.equals(mine)) {
                return List.of("nsenter", "--mount=/proc/" + h.pid() + "/ns/mnt", "--");
            }
        }
        return List.of();
    }

    private static String mountNamespace(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/" + pid + "/ns/mnt")).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** Ends the running detached agent of this state folder: TERM, then KILL after {@link #ENDS}. */
    private void stop(Installed at) {
        if (AgentSetup.systemdRuns()) {
            return;
        }
        for (ProcessHandle h : Installed.agents(at.state())) {
            AgentSetup.end(h, ENDS);
            say.accept("the agent (pid " + h.pid() + ") stopped");
        }
    }

    /** Whether an agent of this state folder runs and accepts connections on its address within {@link #LISTENS}. */
    private static boolean listens(Installed at) {
        return AgentSetup.until(LISTENS, Duration.ofMillis(500), () -> {
            if (!Installed.agents(at.state()).isEmpty() || AgentSetup.systemdRuns()) {
                try (Socket s = new Socket()) {
                    s.connect(at.listen(), 1000);
                    return Poll.got(true);
                } catch (IOException e) {
                    return Poll.notYet("does not accept connections yet: " + e.getMessage());
                }
            }
            return Poll.notYet("no agent runs");
        }) instanceof Poll.Answered<Boolean>;
    }

    /**
     * Whether the installed app folder {@code app} ({@code <state>/app}) holds the build this process runs: the same
     * files as its app folder, or, native, the same executable.
     */
    public static boolean runsThisBuild(Path app) throws IOException {
        Path from = RunningMesh.appFolder();
        if (from == null) {
            Path installed = app.resolve(RunningMesh.NATIVE_EXECUTABLE);
            return Files.isRegularFile(installed) && mesh.bundle.Digest.ofFile(RunningMesh.executable()).equals(mesh.bundle.Digest.ofFile(installed));
        }
        return sameTree(from, app);
    }

    /** Whether two app folders hold the same files (paths and contents), their launchers and JDK AOT caches aside. */
    static boolean sameTree(Path a, Path b) throws IOException {
        return Files.isDirectory(b) && contents(a).equals(contents(b));
    }

    private static Map<String, String> contents(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                String rel = root.relativize(f).toString();
                if (rel.equals("bin/mesh") || rel.endsWith(".aot") || rel.endsWith(AotCaches.TRAINING)) {
                    continue;
                }
                files.put(rel, mesh.bundle.Digest.ofFile(f).hex());
            }
        }
        return files;
    }

    /**
     * Installed is the mesh {@code mesh install} made around a bundle's folder: its state folder, the agent's app and
     * settings file, and the address the agent listens on.
     */
    record Installed(Path state, Path app, Path envFile, InetSocketAddress listen) {

        /** The installed mesh whose agent unpacked {@code bundle}: the nearest folder above it with {@code app/bin/mesh} and a running agent. */
        static Installed around(Path bundle, java.util.function.Function<Path, Map<String, String>> read) {
            for (Path p = bundle.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
                if (Files.isRegularFile(p.resolve("app/bin/mesh")) && !p.equals(bundle)) {
                    Path envFile = envFile(p);
                    Map<String, String> settings = read.apply(envFile);
                    String listen = settings.get("MESH_HOST_LISTEN");
                    if (listen == null || listen.lastIndexOf(':') < 0) {
                        throw new InstallFailure(envFile + " names no MESH_HOST_LISTEN (address:port)");
                    }
                    int colon = listen.lastIndexOf(':');
                    return new Installed(p, p.resolve("app"), envFile,
                            new InetSocketAddress(listen.substring(0, colon), Integer.parseInt(listen.substring(colon + 1))));
                }
            }
            throw new InstallFailure("mesh host upgrade-self runs from a bundle its agent unpacked under the state folder"
                    + " mesh install made (with app/bin/mesh); " + bundle + " is under none");
        }

        /** The settings file the running agent of {@code state} was started with ({@code --config}), else install's default. */
        private static Path envFile(Path state) {
            for (ProcessHandle h : agents(state)) {
                List<String> args = h.info().arguments().map(List::of).orElse(List.of());
                int i = args.indexOf("--config");
                if (i >= 0 && i + 1 < args.size()) {
                    return Path.of(args.get(i + 1));
                }
            }
            Path standard = Path.of(AgentUnit.DEFAULT_CONFIG_DIR, AgentUnit.SETTINGS_FILE);
            if (Files.isRegularFile(standard)) {
                return standard;
            }
            throw new InstallFailure("no running agent of " + state + " names its settings (--config), and " + standard + " is not there");
        }

        /** The running agents whose command line runs {@code state}'s app ({@code host serve}). */
        static List<ProcessHandle> agents(Path state) {
            String app = state.resolve("app").toString() + "/";
            List<ProcessHandle> found = new ArrayList<>();
            ProcessHandle.allProcesses().forEach(h -> {
                Optional<String> line = h.info().commandLine();
                if (line.isPresent() && line.get().contains(app) && line.get().contains(" host serve")
                        && h.pid() != ProcessHandle.current().pid()) {
                    found.add(h);
                }
            });
            return found;
        }
    }
}
