package mesh.testbed;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.core.RemoteApiVersion;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TestbedNodes is a test's handle on the simulated nodes of {@code scripts/testbed}: each node is a
 * network namespace with its own address on bridge br-mesh (10.77.0.0/24) and its own Docker engine.
 * Plain Java, no Quarkus, so any test can use it.
 *
 * <p>The script needs root and a machine prepared by {@code scripts/testbed up}; {@link #up(int)}
 * is idempotent, so every test class may ask for the nodes it needs and nodes already up are reused.
 */
public final class TestbedNodes {

    /** One simulated node, as {@code scripts/testbed nodes up} prints it. */
    public record Node(String name, String address, String dockerHost) {
    }

    /** What one run of the script did: exit code, stdout (the parseable part) and stderr (step lines). */
    public record Run(int exitCode, String stdout, String stderr) {
    }

    /** A node line: {@code NAME ADDRESS unix:///run/mesh-NAME/docker.sock}. */
    private static final Pattern NODE_LINE = Pattern.compile("^(\\S+) (\\d{1,3}(?:\\.\\d{1,3}){3}) (unix://\\S+)$");

    private static final Duration UP_TIMEOUT = Duration.ofMinutes(3);

    private TestbedNodes() {
    }

    /**
     * The {@code count} test-bed nodes a suite uses: n1.. , or nK.. with {@code -Dmesh.testbed.first=K}
     * (so two suites can share a machine), raised as {@link #up} raises them.
     */
    public static List<Node> ours(int count) {
        return from(Integer.getInteger("mesh.testbed.first", 1), count);
    }

    /** Raises nodes nFIRST..nFIRST+COUNT-1 (reusing those already up) and returns them in order. */
    public static List<Node> from(int first, int count) {
        if (first == 1) {
            return up(count);
        }
        int last = first + count - 1;
        Run run = run(UP_TIMEOUT, "nodes", "up", Integer.toString(last), Integer.toString(first));
        if (run.exitCode() != 0) {
            throw new IllegalStateException("scripts/testbed nodes up " + last + " " + first + " exited with " + run.exitCode()
                    + "\n" + run.stderr());
        }
        List<Node> nodes = parse(run.stdout());
        if (nodes.size() != count || !nodes.get(0).name().equals("n" + first)) {
            throw new IllegalStateException("scripts/testbed nodes up " + last + " " + first + " printed unexpected nodes:\n"
                    + run.stdout());
        }
        return nodes;
    }

    /** Stops the node's engine as a machine's shutdown does (its containers stopped, its data kept). */
    public static void stopEngine(String name) {
        Run run = run(Duration.ofSeconds(90), "engine", "stop", name);
        if (run.exitCode() != 0) {
            throw new IllegalStateException("scripts/testbed engine stop " + name + " exited with " + run.exitCode() + "\n" + run.stderr());
        }
    }

    /** Kills the node's engine as a machine's death does (dockerd, containerd, shims, containers: SIGKILL; its data kept). */
    public static void killEngine(String name) {
        Run run = run(Duration.ofSeconds(30), "engine", "kill", name);
        if (run.exitCode() != 0) {
            throw new IllegalStateException("scripts/testbed engine kill " + name + " exited with " + run.exitCode() + "\n" + run.stderr());
        }
    }

    /** Starts the node's stopped engine again on its data. */
    public static void startEngine(String name) {
        Run run = run(UP_TIMEOUT, "engine", "start", name);
        if (run.exitCode() != 0) {
            throw new IllegalStateException("scripts/testbed engine start " + name + " exited with " + run.exitCode() + "\n" + run.stderr());
        }
    }

    /**
     * Cuts the node's link to the test bed's bridge ({@code up} false), as a pulled cable does, or puts it back: the
     * host side of its veth pair, {@code veth-NAME}, set down or up. Nothing else of the node changes.
     */
    public static void link(String name, boolean up) {
        List<String> command = List.of("ip", "link", "set", "veth-" + name, up ? "up" : "down");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + said);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }

    /** Raises nodes n1..nN (reusing those already up) and returns them in order. */
    public static List<Node> up(int n) {
        Run run = run(UP_TIMEOUT, "nodes", "up", Integer.toString(n));
        if (run.exitCode() != 0) {
            throw new IllegalStateException("scripts/testbed nodes up " + n + " exited with " + run.exitCode()
                    + " (is this machine prepared with `scripts/testbed up`, and are we root?)\n" + run.stderr());
        }
        List<Node> nodes = parse(run.stdout());
        for (int i = 0; i < n; i++) {
            if (nodes.size() != n || !nodes.get(i).name().equals("n" + (i + 1))) {
                throw new IllegalStateException("scripts/testbed nodes up " + n + " printed unexpected nodes:\n" + run.stdout());
            }
        }
        return nodes;
    }

    /** The nodes that are up now (any names, including other tests' nodes). */
    public static List<Node> list() {
        Run run = run(Duration.ofSeconds(60), "nodes", "list");
        if (run.exitCode() != 0) {
            throw new IllegalStateException("scripts/testbed nodes list exited with " + run.exitCode() + "\n" + run.stderr());
        }
        return parse(run.stdout());
    }

    /** Parses the node lines of the script's stdout; other lines are ignored. */
    static List<Node> parse(String stdout) {
        List<Node> nodes = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            Matcher m = NODE_LINE.matcher(line.strip());
            if (m.matches()) {
                nodes.add(new Node(m.group(1), m.group(2), m.group(3)));
            }
        }
        return List.copyOf(nodes);
    }

    /** A docker-java client for the node's own engine. */
    public static DockerClient client(Node node) {
        return client(node.dockerHost());
    }

    /**
     * A docker-java client for an engine. The API version is pinned to 1.41, the version Debian's
     * engine 20.10 speaks: it refuses clients that ask for 1.42 or newer.
     */
    public static DockerClient client(String dockerHost) {
        var config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost(dockerHost)
                .withApiVersion(RemoteApiVersion.VERSION_1_41)
                .build();
        var http = new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(config.getSSLConfig())
                .maxConnections(32)
                .connectionTimeout(Duration.ofSeconds(5))
                .responseTimeout(Duration.ofSeconds(120))
                .build();
        return DockerClientImpl.getInstance(config, http);
    }

    /** The project directory: the working directory or the nearest parent holding scripts/testbed. */
    public static Path projectDir() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("scripts/testbed"))) {
                return d;
            }
        }
        throw new IllegalStateException("no scripts/testbed in " + dir + " or its parents");
    }

    /** Runs {@code scripts/testbed ARGS...}; its step lines (stderr) are echoed to System.err as they come. */
    public static Run run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add(projectDir().resolve("scripts/testbed").toString());
        command.addAll(List.of(args));
        Process process;
        try {
            process = new ProcessBuilder(command).directory(projectDir().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        CompletableFuture<String> out = drain(process.getInputStream(), false);
        CompletableFuture<String> err = drain(process.getErrorStream(), true);
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroy();
                process.waitFor(10, TimeUnit.SECONDS);
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout
                        + "\n" + err.getNow(""));
            }
            return new Run(process.exitValue(), out.get(30, TimeUnit.SECONDS), err.get(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
            throw new IllegalStateException("interrupted while running " + command, e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot read the output of " + command, e);
        }
    }

    private static CompletableFuture<String> drain(InputStream in, boolean echo) {
        return CompletableFuture.supplyAsync(() -> {
            StringBuilder text = new StringBuilder();
            try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    text.append(line).append('\n');
                    if (echo) {
                        System.err.println(line);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return text.toString();
        }, runnable -> {
            Thread t = new Thread(runnable, "testbed-output");
            t.setDaemon(true);
            t.start();
        });
    }
}
