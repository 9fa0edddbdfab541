package mesh.host.edge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * CaddyAdmin is the agent's client of one edge container's admin API, reached on the container's
 * own address on its network (the agent runs in the node's network namespace, where the engine's
 * bridges are; the port is never published on the node's addresses). Every call is bounded in time.
 */
final class CaddyAdmin {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** Client holds the HTTP client, made when the program runs (the native executable initializes it then). */
    private static final class Client {
        static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    private final URI base;

    CaddyAdmin(String address) {
        this.base = URI.create("http://" + (address.contains(":") ? "[" + address + "]" : address) + ":" + CaddyConfig.ADMIN_PORT);
    }

    /** The configuration Caddy runs now ({@code GET /config/}); null if it holds none. */
    JsonNode config() throws IOException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(base.resolve("/config/")).GET());
        if (r.statusCode() != 200) {
            throw new IOException("GET /config/ answered " + r.statusCode() + ": " + r.body().strip());
        }
        JsonNode config = JSON.readTree(r.body());
        return config == null || config.isNull() ? null : config;
    }

    /** Loads a configuration ({@code POST /load}); Caddy's own message if it refuses it. */
    Optional<String> load(JsonNode config) throws IOException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(base.resolve("/load"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(config.toString())));
        if (r.statusCode() == 200) {
            return Optional.empty();
        }
        JsonNode error = r.body().isBlank() ? null : JSON.readTree(r.body()).get("error");
        return Optional.of(error == null ? "answered " + r.statusCode() + ": " + r.body().strip() : error.asText());
    }

    /** The root certificate (PEM) of Caddy's internal CA ({@code GET /pki/ca/local}). */
    String caRoot() throws IOException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(base.resolve("/pki/ca/local")).GET());
        JsonNode root = r.statusCode() == 200 ? JSON.readTree(r.body()).get("root_certificate") : null;
        if (root == null) {
            throw new IOException("GET /pki/ca/local answered " + r.statusCode() + ": " + r.body().strip());
        }
        return root.asText();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return Client.HTTP.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
