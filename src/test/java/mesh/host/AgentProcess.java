package mesh.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.testbed.PackagedMesh;

/**
 * AgentProcess is one real host agent, the packaged {@code mesh host serve}, run as a separate OS
 * process so a test can SIGKILL it and start it again on the same state dir. It runs from a private
 * copy of the packaged app ({@link PackagedMesh#copyApp}), taken once per test class, through the launcher
 * {@code mesh install} writes ({@link mesh.testbed.Launcher}: the installed serve flags, a 64 MB heap).
 * Each launch writes its stdout and stderr to its own log file, kept for the post-mortem.
 */
final class AgentProcess implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    private final Path app;
    private final String netns;
    private final Map<String, String> env;
    private final URI base;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;

    /** The answer to one call: status code and body. */
    record Answer(int status, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("not JSON (status " + status + "): " + body, e);
            }
        }
    }

    /**
     * An agent run from {@code app}, a copy of the packaged app (see {@link PackagedMesh#copyApp}), with
     * the same env, port and state dir at every launch.
     */
    AgentProcess(Path app, String node, String token, Path stateDir, String engine) {
        this(app, node, token, stateDir, engine, null, "127.0.0.1", PackagedMesh.freePort());
    }

    /**
     * An agent run inside a simulated node's network namespace ({@code netns}, null for none), listening on
     * {@code address:port} there, so other nodes' agents reach it as they would on a real mesh.
     */
    AgentProcess(Path app, String node, String token, Path stateDir, String engine, String netns, String address) {
        this(app, node, token, stateDir, engine, netns, address, PackagedMesh.freePort());
    }

    /** As above, on a given port. */
    AgentProcess(Path app, String node, String token, Path stateDir, String engine, String netns, String address, int port) {
        this.app = app;
        this.netns = netns;
        this.token = token;
        this.base = URI.create("http://" + address + ":" + port);
        Map<String, String> e = new TreeMap<>();
        e.put("MESH_HOST_NODE", node);
        if (token != null) {   // a plain-HTTP agent's test credential; null: an agent a controller pushes to
            e.put("MESH_HOST_TOKEN", token);
        }
        e.put("MESH_HOST_LISTEN", address + ":" + port);
        e.put("MESH_HOST_STATE_DIR", stateDir.toString());
        e.put("MESH_HOST_INTERVAL", "1s");
        e.put("MESH_HOST_ENGINE", engine);
        this.env = Map.copyOf(e);
    }

    /** Launches the agent (same env, port and state dir every time) and waits until its API answers. */
    void start(Path log, Duration timeout) throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the agent is already running, pid " + process.pid());
        }
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = new ProcessBuilder(mesh.testbed.Launcher.installed(app).command(netns, List.of("host", "serve")))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        pb.environment().putAll(env);
        // an agent given no TLS files serves plain HTTP (docs/trust.md): this launcher's tests speak HTTP
        if (!env.containsKey("MESH_TLS_CERT")) {
            pb.environment().putIfAbsent("MESH_PLAIN_HTTP", "yes");
        }
        process = pb.start();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the agent exited with " + process.exitValue() + " before answering; log:\n"
                        + Files.readString(log));
            }
            try {
                if (get("/v1/status").status() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the agent did not answer within " + timeout + "; log:\n" + Files.readString(log));
    }

    /** The agent's API, {@code http://ADDRESS:PORT}, as a controller reaches it. */
    String url() {
        return base.toString();
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL (Process.destroyForcibly on Linux), and waits until the process is gone. */
    void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    Answer put(String declarationJson) throws IOException, InterruptedException {
        HttpRequest request = bearer(HttpRequest.newBuilder(base.resolve("/v1/declaration")), token)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(declarationJson))
                .build();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    /** {@code b} with the Authorization header for {@code token}, or without for null (an agent without MESH_HOST_TOKEN takes every call). */
    private static HttpRequest.Builder bearer(HttpRequest.Builder b, String token) {
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }

    /** The agent's base URL, as another node's agent would call it. */
    URI base() {
        return base;
    }

    /** Any call: method, path, JSON body (null for none) and bearer (null: the agent's token). */
    Answer send(String method, String path, String body, String bearer) throws IOException, InterruptedException {
        HttpRequest request = bearer(HttpRequest.newBuilder(base.resolve(path)), bearer == null ? token : bearer)
                .timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    Answer get(String path) throws IOException, InterruptedException {
        HttpRequest request = bearer(HttpRequest.newBuilder(base.resolve(path)), token)
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    /**
     * As {@link #awaitConverged}, and then until no component is {@code starting} any more: a container up for
     * less than a few seconds is reported starting, not running (docs/health.md), so a test that checks
     * "every component running" right after a convergence waits out that window first. Returns the last status.
     */
    JsonNode awaitSettled(long generation, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode s = awaitConverged(generation, timeout);
        while (System.nanoTime() < deadline) {
            boolean starting = false;
            for (JsonNode c : s.path("components")) {
                starting |= "starting".equals(c.path("state").asText());
            }
            if (!starting) {
                return s;
            }
            Thread.sleep(200);
            s = awaitConverged(generation, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        }
        return s;
    }

    /**
     * Polls {@code GET /v1/status} until the agent says converged at this generation; returns the
     * last status. Throws with the last status seen when the timeout passes.
     */
    JsonNode awaitConverged(long generation, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!alive()) {
                throw new IllegalStateException("the agent died (exit " + process.exitValue() + ") while converging");
            }
            try {
                Answer a = get("/v1/status");
                last = a.status() + " " + a.body();
                if (a.status() == 200) {
                    JsonNode s = a.json();
                    if (s.path("converged").asBoolean(false) && s.path("appliedGeneration").asLong() == generation
                            && s.path("generation").asLong() == generation) {
                        return s;
                    }
                }
            } catch (IOException e) {
                last = "status call failed: " + e;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the agent did not converge at generation " + generation + " within " + timeout
                + "; last status: " + last);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
