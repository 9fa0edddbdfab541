package mesh.install;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mesh.controller.AgentClient;
import mesh.model.Node;
import mesh.model.Poll;
import mesh.trust.MeshCa;
import mesh.trust.TlsDir;

/**
 * AotCaches trains the two JDK AOT caches (JEP 483/514) an app folder's launcher starts from
 * ({@link RunningMesh#launcherScript}): {@code serve.aot} for the serve verbs, on a run of {@code mesh host
 * serve} over HTTPS until it answers the controller's certificate, and {@code mesh.aot} for the short verbs,
 * on an HTTPS verb against that agent. Each is trained with the very flags the launcher gives the verb: a
 * cache is refused under another GC or JIT setting.
 *
 * <p>A cache holds the class path's paths relative to the app and every jar's size and mtime, so it stays
 * valid in a copy of the folder that keeps the files' mtimes ({@code cp -a}, {@link AgentSetup}'s copy).
 * So the caches are trained once per build, beside the jar of the app folder {@code mesh install} runs
 * from, and travel with every install from it: the test suite's some 80 installs from {@code
 * target/quarkus-app} pay one training, an operator's first install from an unpacked app pays it once
 * (about 15–30 s). Whether a cache there is current (this jar, this JDK, these flags) is asked of the JVM
 * itself ({@code -XX:AOTMode=on}, which refuses to start from a cache it cannot use), not of a stamp
 * that could drift from what the JVM checks.
 */
public final class AotCaches {

    /** The short verbs' cache, beside quarkus-run.jar. */
    public static final String CLI = "mesh.aot";
    /** The serve verbs' cache, beside quarkus-run.jar. */
    public static final String SERVE = "serve.aot";

    /** How a cache being trained beside the jar ends: never copied, never used. */
    static final String TRAINING = ".training";

    private static final String TRAINEE = "mesh-aot-training";
    private static final Duration BOOT = Duration.ofSeconds(90);

    private final Path app;
    private final String engine;

    /** The caches of {@code app} (a folder holding quarkus-run.jar); the training agent looks at {@code engine} only. */
    public AotCaches(Path app, String engine) {
        this.app = app.toAbsolutePath().normalize();
        this.engine = engine;
    }

    /** True when this Java has AOT caches of this kind (JDK 25: training in one run, -XX:AOTCacheOutput). */
    public static boolean supported() {
        return Runtime.version().feature() >= 25 && System.getProperty("org.graalvm.nativeimage.imagecode") == null;
    }

    /** True when both caches are there and the JVM starts from each with its verbs' flags. */
    public boolean current() {
        boolean[] both = acceptedBoth();
        return both[0] && both[1];
    }

    /** Whether the JVM takes each cache, serve's and the CLI's, asked side by side (each ask is a JVM start). */
    private boolean[] acceptedBoth() {
        CompletableFuture<Boolean> serve = CompletableFuture.supplyAsync(
                () -> accepted(SERVE, RunningMesh.hostServeFlags()));
        boolean cli = accepted(CLI, RunningMesh.cliFlags());
        return new boolean[] {serve.join(), cli};
    }

    /**
     * Trains whichever cache is missing or refused; returns what it did, for the installer's output. A
     * failed training leaves no cache (the launcher then starts without one) and says why.
     */
    public String ensure() {
        boolean[] both = acceptedBoth();
        boolean serve = both[0];
        boolean cli = both[1];
        if (serve && cli) {
            return "the JDK's AOT caches in " + app + " are current";
        }
        long t0 = System.nanoTime();
        try {
            train(!serve, !cli);
        } catch (IOException | RuntimeException e) {
            return "could not train the JDK's AOT caches in " + app + " (" + e.getMessage() + "); the verbs start without";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InstallFailure("interrupted while training the JDK's AOT caches");
        }
        return "trained the JDK's AOT caches in " + app + " (" + (System.nanoTime() - t0) / 100_000_000 / 10.0 + " s, once per build)";
    }

    /** Whether the JVM starts {@code --version} (answered before Quarkus boots) from {@code cache} with {@code flags}. */
    boolean accepted(String cache, List<String> flags) {
        Path file = app.resolve(cache);
        if (!Files.isRegularFile(file)) {
            return false;
        }
        List<String> command = java(flags);
        command.addAll(List.of("-XX:AOTCache=" + file, "-XX:AOTMode=on", RunningMesh.QUIET_AOT, "-jar", jar(), "--version"));
        try {
            Process p = quiet(new ProcessBuilder(command)).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * One run of {@code mesh host serve} on a free loopback port, over HTTPS with a throwaway CA (as an
     * installed agent serves, so the TLS server's classes are in the cache), until it answers {@code GET
     * /v1/status} with the controller's certificate; meanwhile one {@code mesh status} against it over
     * HTTPS (the CLI's TLS client, up to the handshake the agent refuses it: it holds no certificate);
     * then SIGTERM: the JVM writes the cache as it exits.
     */
    private void train(boolean serve, boolean cli) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory("mesh-aot-training-");
        String id = work.getFileName().toString().substring("mesh-aot-training-".length());
        // written beside the jar (a cache is moved into place in one step), named so no copy takes it
        Path serveOut = app.resolve("." + SERVE + "." + id + TRAINING);
        Path cliOut = app.resolve("." + CLI + "." + id + TRAINING);
        try {
            Instant now = Instant.now();
            TlsDir tls = new TlsDir(work.resolve("tls"));
            MeshCa ca = tls.ensureCa(TRAINEE, now);
            tls.ensureIssued(ca, "agent", MeshCa.Role.AGENT, TRAINEE, List.of("127.0.0.1"), now);
            tls.ensureIssued(ca, "controller", MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("127.0.0.1"), now);
            int port = freePort();
            List<String> command = java(RunningMesh.hostServeFlags());
            if (serve) {
                command.add("-XX:AOTCacheOutput=" + serveOut);
            } else {
                command.addAll(List.of("-XX:AOTCache=" + app.resolve(SERVE), RunningMesh.QUIET_AOT));
            }
            command.addAll(List.of("-jar", jar(), "host", "serve"));
            ProcessBuilder b = quiet(new ProcessBuilder(command));
            b.environment().putAll(tls.serveEnv("agent"));
            b.environment().putAll(Map.of("MESH_HOST_NODE", TRAINEE, "MESH_HOST_TOKEN", "training",
                    "MESH_HOST_LISTEN", "127.0.0.1:" + port, "MESH_HOST_STATE_DIR", work.resolve("host").toString(),
                    "MESH_HOST_INTERVAL", "3600s"));
            if (engine != null) {
                b.environment().put("MESH_HOST_ENGINE", engine);
            }
            b.redirectOutput(work.resolve("serve.log").toFile());
            Process agent = b.start();
            try {
                awaitAnswer(agent, tls, port, work);
                if (cli) {
                    trainCli(work, cliOut, tls, port);
                }
            } finally {
                agent.destroy();   // SIGTERM: the cache is written at exit
                if (!agent.waitFor(2, TimeUnit.MINUTES)) {
                    agent.destroyForcibly();
                }
            }
            if (serve) {
                place(serveOut, SERVE, work.resolve("serve.log"));
            }
            if (cli) {
                place(cliOut, CLI, work.resolve("cli.log"));
            }
        } finally {
            AgentSetup.deleteTree(work);
            Files.deleteIfExists(serveOut);
            Files.deleteIfExists(cliOut);
        }
    }

    private void awaitAnswer(Process agent, TlsDir tls, int port, Path work) throws IOException {
        AgentClient client = new AgentClient(tls.clientContext("controller"));
        Node node = new Node(TRAINEE, "127.0.0.1", "https://127.0.0.1:" + port, null);
        Poll.Result<Boolean> r = AgentSetup.until(BOOT, Duration.ofMillis(200), () -> {
            if (!agent.isAlive()) {
                return Poll.got(false);
            }
            try {
                client.status(node);
                client.status(node);
                return Poll.got(true);
            } catch (RuntimeException starting) {
                return Poll.notYet(starting.getMessage());
            }
        });
        if (r instanceof Poll.Answered<Boolean> a && a.value()) {
            return;
        }
        throw new IOException("the training agent did not answer: " + tail(work.resolve("serve.log")));
    }

    private void trainCli(Path work, Path out, TlsDir tls, int port) throws IOException, InterruptedException {
        List<String> command = java(RunningMesh.cliFlags());
        command.addAll(List.of("-XX:AOTCacheOutput=" + out, "-jar", jar(), "status"));
        ProcessBuilder b = quiet(new ProcessBuilder(command));
        b.environment().putAll(Map.of("MESH_CONTROLLER", "https://127.0.0.1:" + port, "MESH_TOKEN", "training",
                "MESH_CA", tls.caCert().toString(), "HOME", work.toString()));
        b.redirectOutput(work.resolve("cli.log").toFile());
        Process p = b.start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
    }

    /** Moves a trained cache beside the jar in one step (two installs may train at once; either result is good). */
    private void place(Path trained, String name, Path log) throws IOException {
        if (!Files.isRegularFile(trained)) {
            throw new IOException("no " + name + " was written: " + tail(log));
        }
        Files.move(trained, app.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private String jar() {
        return app.resolve("quarkus-run.jar").toString();
    }

    /** This Java with {@code flags} as the launcher spells them (it runs every verb with the Java install ran on). */
    private static List<String> java(List<String> flags) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:+IgnoreUnrecognizedVMOptions");
        command.addAll(flags);
        return command;
    }

    /** No MESH_* of the installer's environment, stdin from /dev/null, output merged. */
    private static ProcessBuilder quiet(ProcessBuilder b) {
        AgentSetup.clean(b.environment());
        return b.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
        } catch (IOException e) {
            return "no log";
        }
    }
}
