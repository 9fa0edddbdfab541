package mesh.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import mesh.api.ApiError;
import mesh.model.DeclarationJson;

/**
 * ControllerClient is the CLI's edge to the controller: MESH_CONTROLLER and MESH_TOKEN, JSON over
 * HTTP, and a refusal turned into the controller's own message. Written on the JDK's HttpClient
 * rather than a generated REST client: one small class, nothing to initialise for a verb that
 * lives a second.
 */
final class ControllerClient {

    static final String DEFAULT_URL = "http://127.0.0.1:7700";

    private final String base;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

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
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofMinutes(10))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(DeclarationJson.write(body)));
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new VerbFailure("cannot reach the controller at " + base + " (" + e.getClass().getSimpleName()
                    + "); is 'mesh controller serve' running, and is MESH_CONTROLLER right?");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbFailure("interrupted");
        }
        if (response.statusCode() / 100 != 2) {
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

    private static String errorOf(HttpResponse<String> response) {
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
            return "the controller answered " + response.statusCode() + ": " + response.body();
        }
    }
}
