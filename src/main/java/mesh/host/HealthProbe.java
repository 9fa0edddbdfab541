package mesh.host;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import mesh.docker.Engine;
import mesh.model.ComponentSpec;
import mesh.model.HealthCheck;

/**
 * HealthProbe waits until a component is ready: running, and its health check (HTTP on the
 * container's address, or a command inside it) answering. Dependants start only after this.
 */
final class HealthProbe {

    static final Duration POLL = Duration.ofMillis(200);
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(3);

    private final Engine engine;
    // Made at the first HTTP check, not per apply: a java.net.http client loads the JDK's trust store
    // (SSLContext.getDefault()) and keeps a selector thread, which an agent with no HTTP checks never needs.
    private HttpClient http;

    HealthProbe(Engine engine) {
        this.engine = engine;
    }

    /** Waits for ready; throws with the reason when the component's health timeout passes. */
    void awaitReady(ComponentSpec spec, String containerId) throws InterruptedException {
        HealthCheck check = spec.health();
        Duration timeout = Duration.ofSeconds(check == null ? HealthCheck.DEFAULT_TIMEOUT_SECONDS : check.timeout());
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "not checked yet";
        while (System.nanoTime() < deadline) {
            if (!engine.running(containerId)) {
                last = "not running";
            } else if (check == null) {
                return;
            } else if (check.http() != null) {
                last = httpAnswer(spec, containerId, check);
                if (last == null) {
                    return;
                }
            } else {
                int code = engine.exec(containerId, check.command(), ATTEMPT_TIMEOUT);
                if (code == 0) {
                    return;
                }
                last = "health command exited " + code;
            }
            Thread.sleep(POLL.toMillis());
        }
        throw new IllegalStateException("not healthy after " + timeout.toSeconds() + "s: " + last);
    }

    /** The HTTP client, made once; components are probed from several apply threads at once. */
    private synchronized HttpClient client() {
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
            return "GET " + check.http() + " failed: " + e.getClass().getSimpleName();
        }
    }
}
