package mesh.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import mesh.install.RunningMesh;

/**
 * Launcher is the one place a test gets the command line of a server verb ({@code mesh host serve},
 * {@code mesh controller serve}): the launcher {@code bin/mesh} that {@code mesh install} writes into a
 * node's state folder ({@link RunningMesh#launcherScript()}, the serve flags of
 * {@code mesh/serve-flags.properties}: a 64 MB heap for the agent), beside a copy of the packaged app.
 * A server started any other way runs another program than operators install (a take of 300 MB passed
 * with {@code java -jar} and failed on an installed agent); {@link PackagedMesh#command} refuses the
 * serve verbs, and {@code mesh.arch.ServeLaunchTest} keeps every test on this class.
 *
 * <p>Who may use it: {@link InstalledMesh} (a mesh raised by {@code mesh install} and {@code --join},
 * over HTTPS), and the test classes {@link #PLAIN_HTTP} names, each with why it runs its own server.
 */
public final class Launcher {

    /**
     * The tests that start a server themselves rather than through {@code mesh install} (most of them over
     * plain HTTP), each with why. They start it with this launcher all the same, so it runs with the
     * installed flags.
     */
    public static final java.util.Map<String, String> PLAIN_HTTP = java.util.Map.ofEntries(
            java.util.Map.entry("mesh.host.AgentProcess", "host-level ITs drive one agent's API as the controller would, "
                    + "with no controller and no mesh around it (HostApiIT, TakeAgentIT, AgentCrashIT, …)"),
            java.util.Map.entry("mesh.host.TestController", "a controller stand-in on a plain database, for the host ITs "
                    + "that need one to push (ProcessComponentIT, ProcessCrashIT)"),
            java.util.Map.entry("mesh.host.ArchiveBackPressureIT", "one agent over HTTPS with a test CA, its archive read "
                    + "by a reader that sleeps: the archive's back-pressure alone, with no mesh around it"),
            java.util.Map.entry("mesh.e2e.TlsIT", "its man in the middle: a host agent at a node's address with the "
                    + "certificate of another CA, which mesh install, issuing only its own mesh's, cannot make"),
            java.util.Map.entry("mesh.e2e.SeatFailoverIT", "a promoted seat's controller, at the next epoch on a store of "
                    + "its own, beside an installed mesh's: mesh install runs one controller per mesh"),
            java.util.Map.entry("mesh.e2e.ControllerEpochIT", "a second controller, with a newer epoch, on the store of "
                    + "an installed mesh: mesh install runs one controller per mesh"),
            java.util.Map.entry("mesh.host.AgentSweepIT", "one agent alone over plain HTTP on loopback, every endpoint "
                    + "sent bad input: the agent's API answers, with no mesh around it"),
            java.util.Map.entry("mesh.controller.ErrorMessagesIT", "a controller alone, for the API's error answers"),
            java.util.Map.entry("mesh.cli.MeshCliIT", "checks that 'host serve' refuses to start without a node name: "
                    + "it never serves (Quarkus's main-IT launcher runs the artifact itself)"));

    private final Path app;

    private Launcher(Path app) {
        this.app = app;
    }

    /**
     * The launcher of an app folder that {@code mesh install} made ({@code <state-dir>/app}, with its
     * {@code bin/mesh}); fails clearly if it is not one.
     */
    public static Launcher of(Path app) {
        if (!Files.isExecutable(app.resolve("bin/mesh"))) {
            throw new AssertionError(app + " is not an installed mesh app (bin/mesh, beside quarkus-run.jar or native)");
        }
        return new Launcher(app);
    }

    /**
     * Makes {@code appCopy}, a copy of the packaged app ({@link PackagedMesh#copyApp}), what {@code mesh install}
     * leaves in a state folder, less its JDK AOT caches
     * (these servers' tests do not measure start times, and the launcher runs without a cache that is not
     * there), with the launcher {@code bin/mesh} install writes. Idempotent.
     */
    public static Launcher installed(Path appCopy) throws IOException {
        if (PackagedMesh.isNative(appCopy)) {
            return new Launcher(appCopy);   // it holds the native launcher already (PackagedMesh.nativeFolder), as a native install leaves it
        }
        try (var files = Files.walk(appCopy)) {
            for (Path aot : files.filter(f -> f.getFileName().toString().endsWith(".aot")).toList()) {
                Files.delete(aot);
            }
        }
        Path launcher = Files.createDirectories(appCopy.resolve("bin")).resolve("mesh");
        Files.writeString(launcher, RunningMesh.launcherScript());
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        return new Launcher(appCopy);
    }

    private static Launcher shared;

    /**
     * One installed copy of the packaged app for this test JVM (in a temporary folder, removed when the JVM
     * ends), for the servers of tests that need no app folder of their own: every launch of a long run
     * then runs the same mesh even if a build rewrites the build directory meanwhile.
     */
    public static synchronized Launcher shared() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("mesh-launcher");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        PackagedMesh.deleteTree(dir);
                    } catch (IOException e) {
                        // a temporary folder: the machine's cleaning removes it later
                    }
                }));
                shared = installed(PackagedMesh.copyApp(dir));
            } catch (IOException e) {
                throw new AssertionError("cannot install the packaged mesh for the tests' servers: " + e.getMessage(), e);
            }
        }
        return shared;
    }

    public Path app() {
        return app;
    }

    /** The command that runs {@code mesh args...} through the launcher, inside {@code netns} unless it is null. */
    public List<String> command(String netns, List<String> args) {
        List<String> command = new ArrayList<>();
        if (netns != null) {
            command.addAll(List.of("nsenter", "--net=/run/netns/" + netns));
        }
        command.add(app.resolve("bin/mesh").toString());
        command.addAll(args);
        return command;
    }
}
