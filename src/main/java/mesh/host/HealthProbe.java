package mesh.host;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import mesh.docker.Engine;
import mesh.model.ComponentSpec;
import mesh.model.HealthCheck;
import mesh.model.Poll;

/**
 * HealthProbe waits until a component is ready: running, and its health check (HTTP on the
 * container's address, or a command inside it) answering. Dependants start only after this.
 */
final class HealthProbe {

    static final Duration POLL = Duration.ofMillis(200);
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(3);
    /**
     * A command check's try: longer than an HTTP try, since an exec passes through the engine (dockerd, containerd,
     * runc) before the command runs. On this project's two-core test machine at load 14, {@code docker exec} of a
     * file test took up to 3.5 s (0.2 s idle); at 3 s a busy node judged healthy components failing.
     */
    static final Duration EXEC_TIMEOUT = Duration.ofSeconds(10);

    private final Engine engine;
    // One for the agent, made at the first HTTP check: a java.net.http client loads the JDK's trust store
    // (SSLContext.getDefault()) and keeps a selector thread, which an agent with no HTTP checks never needs,
    // and probes are made per apply and per pass (ComponentLook), so a client per probe would be one per look.
    private static HttpClient http;

    HealthProbe(Engine engine) {
        this.engine = engine;
    }

    /** Waits for ready; throws with the reason when the component's health timeout passes. */
    void awaitReady(ComponentSpec spec, String containerId) throws InterruptedException {
        HealthCheck check = spec.health();
        Duration timeout = Duration.ofSeconds(check == null ? HealthCheck.DEFAULT_TIMEOUT_SECONDS : check.timeout());
        Poll.Result<Boolean> r = Poll.interruptibly(timeout, POLL, () -> {
            if (!engine.running(containerId)) {
                return Poll.notYet("not running");
            }
            String why = once(spec, containerId);
            return why == null ? Poll.got(true) : Poll.notYet(why);
        });
        if (r instanceof Poll.TimedOut<Boolean> t) {
            throw new IllegalStateException("not healthy after " + timeout.toSeconds() + "s: " + t.lastWhy());
        }
    }

    /**
     * One try of the component's health check on a running container, as each pass makes: null when it
     * passes (or there is none), else why not.
     */
    String once(ComponentSpec spec, String containerId) throws InterruptedException {
        HealthCheck check = spec.health();
        if (check == null) {
            return null;
        }
        if (check.http() != null) {
            return httpAnswer(spec, containerId, check);
        }
        int code = engine.exec(containerId, check.command(), EXEC_TIMEOUT);
        return code == 0 ? null : code < 0 ? "health command did not end in " + EXEC_TIMEOUT.toSeconds() + "s"
                : "health command exited " + code;
    }

    /** The HTTP client, made once; components are probed from several apply threads at once. */
    private static synchronized HttpClient client() {
        if (http == null) {
            http = HttpClient.newBuilder().connectTimeout(ATTEMPT_TIMEOUT).build();
        }
        return http;
    }

    /** Null when healthy, else why not. */
    private String httpAnswer(ComponentSpec spec, String containerId, HealthCheck check) throws InterruptedException {
        String address = engine.address(containerId, spec.network());
        if (address == null) {
            return "no address on network " + spec.network();
        }
        URI uri = URI.create("http://" + (address.contains(":") ? "[" + address + "]" : address) + ":"
                + check.port() + check.http());
        try {
            HttpResponse<Void> response = client().send(HttpRequest.newBuilder(uri).timeout(ATTEMPT_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() < 400 ? null : "GET " + check.http() + " answered " + response.statusCode();
        } catch (java.io.IOException e) {
            return "GET " + check.http() + " on port " + check.port() + " failed: "
                    + (e.getMessage() == null ? "no answer" : e.getMessage());
        }
    }
}
