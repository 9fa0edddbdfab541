package mesh.e2e;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * MeshProcess runs the packaged mesh as a process, the way systemd and an operator do: a server in
 * the background (optionally inside a node's network namespace), or one CLI verb to completion.
 * Output goes to files under the build directory, so a failing test leaves its evidence.
 */
final class MeshProcess implements AutoCloseable {

    /** The packaged app of this build (Failsafe runs after package). */
    static final Path JAR = Path.of(System.getProperty("native.image.path", "target/mesh-runner"))
            .resolveSibling("quarkus-app").resolve("quarkus-run.jar");
    static final Path LOGS = JAR.getParent().getParent().resolve("e2e-logs");
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    final Process process;
    final Path log;

    private MeshProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Result is a finished verb: its exit code and what it printed. */
    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout: " + out + "\nstderr: " + err;
        }
    }

    /** Starts a server; {@code netns} runs it inside that network namespace (a simulated node), or null. */
    static MeshProcess serve(String name, String netns, Map<String, String> env, String... args) throws IOException {
        Files.createDirectories(LOGS);
        List<String> command = new ArrayList<>();
        if (netns != null) {
            command.addAll(List.of("nsenter", "--net=/run/netns/" + netns));
        }
        command.addAll(List.of(JAVA, "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Path log = LOGS.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        return new MeshProcess(pb.start(), log);
    }

    /** Runs one verb to completion (bounded). */
    static Result run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        Files.createDirectories(LOGS);
        List<String> command = new ArrayList<>(List.of(JAVA, "-XX:TieredStopAtLevel=1", "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(LOGS, "verb", ".out");
        Path err = Files.createTempFile(LOGS, "verb", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("mesh " + String.join(" ", args) + " did not finish in 2 minutes");
        }
        Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Kills it hard, as a crash or an operator's kill -9 would. */
    void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            kill();
        }
    }

    static void await(String what, Duration timeout, java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what);
            }
            Thread.sleep(200);
        }
    }
}
