package mesh.testbed;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * PackagedMesh is the {@code mesh} this build packaged (Failsafe runs after {@code package}), run as
 * real processes the way operators and systemd run it: one verb to completion, or the command line
 * of a server (optionally inside a test-bed node's network namespace). Every test that runs the jar
 * goes through here.
 *
 * <p>{@code -Dmesh.native=PATH} runs the native executable {@code scripts/native} built instead of the jar: the
 * "app folder" is then a folder holding it as {@code bin/mesh-native} beside the launcher {@code bin/mesh}, which is
 * what {@code mesh install} of a native executable leaves in a state folder, so the same tests run the native
 * program as installed.
 */
public final class PackagedMesh {

    /**
     * OWN_THREAD runs a task that blocks (a CLI verb, a take, a node brought back) on a platform thread of its own, for
     * {@code CompletableFuture.supplyAsync(task, OWN_THREAD)}. Not the common pool: on this 2-core machine it has one
     * thread, shared by every class the Failsafe JVM runs side by side, and a take blocking it for a minute held another
     * class's timed step back by as long (MovedCopyIT's node came back 60 s late, after its probes had ended).
     */
    public static final Executor OWN_THREAD = task -> Thread.ofPlatform().daemon().name("it-own-thread").start(task);


    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    /** The native executable the tests run instead of the jar ({@code -Dmesh.native}), or null. */
    static final Path NATIVE = System.getProperty("mesh.native", "").isBlank() ? null
            : Path.of(System.getProperty("mesh.native")).toAbsolutePath();

    private PackagedMesh() {
    }

    /** Result is one finished verb: its arguments, exit code and what it printed. */
    public record Result(List<String> args, int exit, String out, String err) {
        @Override
        public String toString() {
            return "mesh " + String.join(" ", args) + " → exit " + exit + "\n--- stdout:\n" + out + "\n--- stderr:\n" + err;
        }
    }

    /**
     * The build directory: Failsafe sets {@code native.image.path} to
     * {@code ${project.build.directory}/<final name>-runner}, so it is that path's parent, whatever
     * {@code -DbuildDir} says; {@code target} when a test runs outside Failsafe.
     */
    public static Path buildDir() {
        String runner = System.getProperty("native.image.path");
        return runner == null ? Path.of("target") : Path.of(runner).toAbsolutePath().getParent();
    }

    /** The packaged app folder ({@code quarkus-app}); fails the test clearly if it was not built. */
    public static Path app() {
        if (NATIVE != null) {
            return nativeApp();
        }
        Path app = buildDir().resolve("quarkus-app");
        if (!Files.isRegularFile(app.resolve("quarkus-run.jar"))) {
            throw new AssertionError("no packaged mesh at " + app + "/quarkus-run.jar: run this test with "
                    + "'./mvnw verify', which packages first");
        }
        return app;
    }

    /**
     * Copies the packaged app into {@code into} and returns the copy: every launch of a long test then
     * runs the same mesh even if another build rewrites the build directory meanwhile.
     */
    public static Path copyApp(Path into) throws IOException {
        if (NATIVE != null) {
            return nativeFolder(into.resolve("quarkus-app"));
        }
        return copyApp(app(), into);
    }

    /** As above, of the app folder {@code from} (another build's: {@link OtherBuild}). */
    public static Path copyApp(Path from, Path into) throws IOException {
        Path copy = into.resolve("quarkus-app");
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path to = copy.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return copy;
    }

    private static Path nativeApp;

    /** The folder of the native executable for this test JVM: a copy of {@code -Dmesh.native}'s, as a native install leaves it. */
    static synchronized Path nativeApp() {
        if (nativeApp == null) {
            if (!Files.isExecutable(NATIVE)) {
                throw new AssertionError("-Dmesh.native=" + NATIVE + " is not an executable: build it with scripts/native");
            }
            try {
                nativeApp = nativeFolder(buildDir().resolve("native-app"));
            } catch (IOException e) {
                throw new AssertionError("cannot copy the native executable: " + e.getMessage(), e);
            }
        }
        return nativeApp;
    }

    /**
     * {@code folder} as a native install leaves its app: a copy of the native executable as
     * {@link mesh.install.RunningMesh#NATIVE_EXECUTABLE} and the launcher {@code bin/mesh} install writes beside it.
     */
    static Path nativeFolder(Path folder) throws IOException {
        Path executable = folder.resolve(mesh.install.RunningMesh.NATIVE_EXECUTABLE);
        Files.createDirectories(executable.getParent());
        Files.copy(NATIVE, executable, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
        Path launcher = folder.resolve("bin/mesh");
        Files.writeString(launcher, mesh.install.RunningMesh.nativeLauncherScript());
        Files.setPosixFilePermissions(launcher, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return folder;
    }

    /** Whether {@code app} holds a native executable rather than the jar. */
    static boolean isNative(Path app) {
        return Files.isExecutable(app.resolve(mesh.install.RunningMesh.NATIVE_EXECUTABLE));
    }

    private static long aotTrainedFor = -1;

    /**
     * Trains the JDK AOT caches {@code mesh install} copies into a state folder in the build's app folder,
     * once per packaged jar, with the product's own training ({@link mesh.install.AotCaches}): every
     * node's copy of the app ({@link #copyApp}) then holds current caches, and its install only asks the
     * JVM whether they are (about 0.5 s) instead of training (about 25 s; the suite runs some 80
     * installs). Without this each install would train in its own copy.
     */
    public static synchronized void trainAotCaches() throws IOException {
        if (!mesh.install.AotCaches.supported() || NATIVE != null) {
            return;
        }
        long mtime = Files.getLastModifiedTime(app().resolve("quarkus-run.jar")).toMillis();
        if (mtime != aotTrainedFor) {
            System.err.println("PackagedMesh: " + new mesh.install.AotCaches(app(), null).ensure());
            aotTrainedFor = mtime;
        }
    }

    /**
     * The command line that runs the verb {@code mesh args...} from {@code app}; inside {@code netns} unless it is
     * null. Not for the serve verbs: a server runs as installed, through {@link Launcher}.
     */
    public static List<String> command(Path app, String netns, List<String> args) {
        if (mesh.cli.ServeMode.forArgs(args.toArray(String[]::new)) != mesh.cli.ServeMode.NONE) {
            throw new AssertionError("mesh " + String.join(" ", args) + " is a server: start it through mesh.testbed.Launcher, "
                    + "with the flags mesh install gives it, not with java -jar");
        }
        List<String> command = new ArrayList<>();
        if (netns != null) {
            command.addAll(List.of("nsenter", "--net=/run/netns/" + netns));
        }
        if (isNative(app)) {
            command.add(app.resolve("bin/mesh").toString());   // the launcher a native install writes
            command.addAll(args);
            return command;
        }
        // the flags and the AOT cache the installed launcher gives a verb (mesh.install.RunningMesh)
        command.add(JAVA);
        command.addAll(aotCache(app));
        command.addAll(mesh.install.RunningMesh.cliFlags());
        command.addAll(List.of("-jar", app.resolve("quarkus-run.jar").toString()));
        command.addAll(args);
        return command;
    }

    /**
     * The flags that start a verb of this build's app folder from the CLI's AOT cache, as the installed
     * launcher does: the cache {@code mesh install} trains there ({@link #trainAotCaches}, once per
     * packaged jar; the suite runs some thousand verbs); none for a copy of the app, or when the
     * training failed. The JVM checks the cache against the jar and, should it not match, starts
     * without it, silently (its report would land in the verb's stdout).
     */
    static List<String> aotCache(Path app) {
        if (!app.toAbsolutePath().normalize().equals(buildDir().resolve("quarkus-app").toAbsolutePath().normalize())) {
            return List.of();
        }
        try {
            trainAotCaches();
        } catch (IOException e) {
            return List.of();
        }
        Path cache = app.resolve(mesh.install.AotCaches.CLI).toAbsolutePath();
        return Files.isRegularFile(cache) ? List.of("-XX:AOTCache=" + cache, mesh.install.RunningMesh.QUIET_AOT) : List.of();
    }

    /**
     * Runs one verb to completion (at most two minutes), stdin from /dev/null. Nothing of the test
     * runner's own {@code MESH_*} environment leaks in; {@code env} is all the verb sees of mesh's.
     */
    public static Result run(Map<String, String> env, String... args) {
        return runWithInput(env, null, args);
    }

    /** As {@link #run}, with {@code input} (null: nothing) as the verb's stdin. */
    public static Result runWithInput(Map<String, String> env, String input, String... args) {
        return runWithin(env, input, java.time.Duration.ofMinutes(2), args);
    }

    /** As {@link #runWithInput}, given at most {@code limit} (a verb that moves a whole mesh, {@code mesh upgrade}). */
    public static Result runWithin(Map<String, String> env, String input, java.time.Duration limit, String... args) {
        List<String> command = command(app(), null, List.of(args));
        try {
            File in = input == null ? new File("/dev/null") : File.createTempFile("mesh-verb", ".in");
            if (input != null) {
                in.deleteOnExit();
                Files.writeString(in.toPath(), input);
            }
            File out = File.createTempFile("mesh-verb", ".out");
            File err = File.createTempFile("mesh-verb", ".err");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out).redirectError(err)
                        .redirectInput(ProcessBuilder.Redirect.from(in));
                builder.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
                builder.environment().putAll(env);
                Process process = builder.start();
                if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError("mesh " + String.join(" ", args) + " did not finish in " + limit.toSeconds() + " s");
                }
                return new Result(List.of(args), process.exitValue(), Files.readString(out.toPath()),
                        Files.readString(err.toPath()));
            } finally {
                Files.deleteIfExists(out.toPath());
                Files.deleteIfExists(err.toPath());
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running mesh " + String.join(" ", args), e);
        }
    }

    /** Polls {@code done} every 200 ms until it holds; fails naming {@code what} after {@code timeout}. */
    public static void await(String what, java.time.Duration timeout, java.util.function.BooleanSupplier done)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what);
            }
            Thread.sleep(200);
        }
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    /** Deletes a folder tree, as far as it can. */
    public static void deleteTree(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
