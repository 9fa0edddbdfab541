package mesh.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import java.io.IOException;
import java.net.URI;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import mesh.api.ApiError;
import mesh.model.DeclarationJson;

/**
 * ControllerClient is the CLI's edge to the controller: MESH_CONTROLLER and MESH_TOKEN, JSON over
 * HTTP, and a refusal turned into the controller's own message. Written by hand on the JDK's
 * HttpURLConnection rather than a generated REST client (quarkus-rest-client): one small class,
 * nothing to initialise for a verb that lives a second.
 */
final class ControllerClient {

    static final String DEFAULT_URL = "http://127.0.0.1:7700";

    private final String base;
    private final String token;
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** A push waits for every node's preview and answer; the controller bounds each of those itself. */
    static final Duration READ_TIMEOUT = Duration.ofMinutes(10);
    /** How long a controller that says it is starting (503) is waited for. */
    static final Duration STARTING = Duration.ofSeconds(15);

    ControllerClient(Map<String, String> env) {
        this.base = env.getOrDefault("MESH_CONTROLLER", DEFAULT_URL).replaceAll("/+$", "");
        this.token = env.get("MESH_TOKEN");
        if (token == null || token.isBlank()) {
            throw new VerbFailure("MESH_TOKEN is not set: give the operator token (MESH_CONTROLLER_TOKEN of the controller)");
        }
    }

    /**
     * A path under the API from literal parts and operator-given names, each name percent-encoded:
     * a name like {@code novox/modules/web} must stay one segment, never become another route.
     */
    static String path(String first, String... names) {
        StringBuilder b = new StringBuilder(first);
        for (int i = 0; i < names.length; i++) {
            String part = names[i];
            b.append(i % 2 == 0 ? "/" + java.net.URLEncoder.encode(part, java.nio.charset.StandardCharsets.UTF_8)
                    .replace("+", "%20") : part);
        }
        return b.toString();
    }

    static ControllerClient fromEnvironment() {
        return new ControllerClient(System.getenv());
    }

    <T> T get(String path, JavaType answer) {
        return call("GET", path, null, answer);
    }

    java.util.List<mesh.controller.MeshController.NodeView> nodes() {
        return get("/v1/mesh/nodes", listOf(mesh.controller.MeshController.NodeView.class));
    }

    java.util.List<mesh.controller.MeshStatus.NodeStatus> status() {
        return get("/v1/mesh/status", listOf(mesh.controller.MeshStatus.NodeStatus.class));
    }

    java.util.List<mesh.controller.MeshController.ModuleView> modules() {
        return get("/v1/mesh/catalogue", listOf(mesh.controller.MeshController.ModuleView.class));
    }

    java.util.List<mesh.plan.MeshPlan.RosterEntry> roster() {
        return get("/v1/mesh/roster", listOf(mesh.plan.MeshPlan.RosterEntry.class));
    }

    private static JavaType listOf(Class<?> element) {
        return DeclarationJson.MAPPER.getTypeFactory().constructCollectionType(java.util.List.class, element);
    }

    <T> T send(String method, String path, Object body, Class<T> answer) {
        return call(method, path, body, answer == null ? null : DeclarationJson.MAPPER.constructType(answer));
    }

    <T> T call(String method, String path, Object body, JavaType answer) {
        String json = body == null ? null : DeclarationJson.write(body);
        Answer response = exchange(method, path, json);
        // a controller just started (by systemd, or by `mesh install`) says 503 + Retry-After until it serves: wait for it
        long deadline = System.nanoTime() + STARTING.toNanos();
        while (response.status() == 503 && response.retryAfter() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            response = exchange(method, path, json);
        }
        if (response.status() / 100 != 2) {
            throw new VerbFailure(errorOf(response));
        }
        if (answer == null || response.body().isEmpty()) {
            return null;
        }
        try {
            return DeclarationJson.MAPPER.readerFor(answer)
                    .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(response.body());
        } catch (JsonProcessingException e) {
            throw new VerbFailure("the controller answered something unreadable: " + e.getOriginalMessage());
        }
    }

    /** Answer is the controller's status code, body, and whether it said when to ask again (Retry-After). */
    record Answer(int status, String body, boolean retryAfter) {
    }

    /**
     * One request over HttpURLConnection. Not java.net.http.HttpClient: building one initialises
     * the TLS stack even for http://, which cost a verb about half a second of its start here
     * (docs/benchmarks.md); a verb makes one request and exits.
     */
    private Answer exchange(String method, String path, String body) {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) URI.create(base + path).toURL().openConnection();
            c.setRequestMethod(method);
            c.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
            c.setReadTimeout((int) READ_TIMEOUT.toMillis());
            c.setRequestProperty("Authorization", "Bearer " + token);
            c.setRequestProperty("Accept", "application/json");
            if (body != null) {
                c.setDoOutput(true);
                c.setRequestProperty("Content-Type", "application/json");
                try (OutputStream out = c.getOutputStream()) {
                    out.write(body.getBytes(StandardCharsets.UTF_8));
                }
            }
            int status = c.getResponseCode();
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new Answer(status, text, c.getHeaderField("Retry-After") != null);
        } catch (IllegalArgumentException | java.net.MalformedURLException e) {
            throw new VerbFailure("MESH_CONTROLLER is not a URL like http://HOST:7700: '" + base + "'");
        } catch (IOException e) {
            throw new VerbFailure("cannot reach the controller at " + base + " (" + e.getClass().getSimpleName()
                    + "); is 'mesh controller serve' running, and is MESH_CONTROLLER right?");
        } finally {
            if (c != null) {
                c.disconnect();
            }
        }
    }

    private static String errorOf(Answer response) {
        try {
            ApiError error = DeclarationJson.MAPPER.readValue(response.body(), ApiError.class);
            if (error.problems() != null && error.problems().size() > 1) {
                String joined = String.join("; ", error.problems());
                String head = error.error().endsWith(joined)
                        ? error.error().substring(0, error.error().length() - joined.length()).replaceAll("[:\\s]+$", "")
                        : error.error();
                return (head.isEmpty() ? error.problems().size() + " problems" : head) + ":\n  "
                        + String.join("\n  ", error.problems());
            }
            return error.error();
        } catch (JsonProcessingException | RuntimeException e) {
            return "the controller answered " + response.status() + ": " + response.body();
        }
    }
}
