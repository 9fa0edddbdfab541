package mesh.install;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mesh.model.DeclarationJson;
import mesh.wire.ApiError;
import mesh.wire.JsonHttp;
import mesh.wire.ModuleView;
import mesh.wire.NodeView;
import mesh.wire.PushReport;

/**
 * SeatApi is the installer's edge to a controller (the temporary one, then the permanent one):
 * the few calls an install makes, over {@link JsonHttp} with the operator token. Refusals keep the
 * controller's own message, with its status.
 */
public final class SeatApi {

    /** Refused is a controller's refusal: its status and message. */
    public static final class Refused extends InstallFailure {
        private final int status;
        private final mesh.wire.Reason reason;

        Refused(int status, mesh.wire.Reason reason, String message) {
            super(message);
            this.status = status;
            this.reason = reason;
        }

        public int status() {
            return status;
        }

        /** The controller's reason, null from one older than reasons. */
        public mesh.wire.Reason reason() {
            return reason;
        }
    }

    private final String base;
    private final JsonHttp http;
    private final HttpClient client;

    /** A client of the controller at {@code base}, over {@code tls} (trusting only the mesh CA). */
    public SeatApi(String base, String token, javax.net.ssl.SSLContext tls) {
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).sslContext(tls).build();
        this.base = base.replaceAll("/+$", "");
        this.http = new JsonHttp(this::exchange, token, new JsonHttp.Failures() {
            @Override
            public RuntimeException unreachable(Exception e) {
                String tlsProblem = mesh.trust.TlsFailure.describe(e, SeatApi.this.base);
                return new InstallFailure("cannot reach the controller at " + SeatApi.this.base + ": "
                        + (tlsProblem != null ? tlsProblem : e.getMessage() == null ? "no answer" : e.getMessage()));
            }

            @Override
            public RuntimeException refused(JsonHttp.Answer a, ApiError error) {
                return new Refused(a.status(), error == null ? null : error.reason(), "the controller at " + SeatApi.this.base + " answered " + a.status() + ": "
                        + (error == null ? a.body() : error.error()));
            }

            @Override
            public RuntimeException unreadable(JsonHttp.Answer a, String detail) {
                return new InstallFailure("the controller at " + SeatApi.this.base + " answered something unreadable: " + detail);
            }
        });
    }

    public String base() {
        return base;
    }

    public List<NodeView> nodes() {
        return http.call("GET", "/v1/mesh/nodes", null, DeclarationJson.MAPPER.getTypeFactory()
                .constructCollectionType(List.class, NodeView.class), Duration.ofSeconds(10), Duration.ofSeconds(15));
    }

    public List<ModuleView> modules() {
        return http.call("GET", "/v1/mesh/catalogue", null, DeclarationJson.MAPPER.getTypeFactory()
                .constructCollectionType(List.class, ModuleView.class), Duration.ofSeconds(10), Duration.ofSeconds(15));
    }

    /**
     * Adds the seat's own node, without a join token (its certificate is issued here, on the seat),
     * with its public domain when one was given ({@code mesh install --public-domain}); a node
     * already there (a rerun) is kept, its public domain set again.
     */
    public void addNode(String name, String address, String publicDomain) {
        try {
            http.call("POST", "/v1/mesh/nodes", Map.of("name", name, "address", address, "agent", "", "withJoinToken", false),
                    (Class<?>) null, Duration.ofSeconds(10), Duration.ofSeconds(15));
        } catch (Refused e) {
            if (e.status() != 409) {
                throw e;
            }
        }
        if (publicDomain != null) {
            http.call("PUT", "/v1/mesh/nodes/" + name + "/public-domain", new mesh.wire.PublicDomain(publicDomain),
                    (Class<?>) null, Duration.ofSeconds(10), Duration.ofSeconds(15));
        }
    }

    public void addCatalogue(Map<String, String> manifests) {
        List<mesh.wire.ManifestFile> files = manifests.entrySet().stream()
                .map(e -> new mesh.wire.ManifestFile(e.getKey() + ".yaml", e.getValue())).toList();
        http.call("POST", "/v1/mesh/catalogue", files, (Class<?>) null, Duration.ofSeconds(10), Duration.ofSeconds(15));
    }

    /** Whether module {@code module} has secret {@code name} in the store. */
    public boolean hasSecret(String module, String name) {
        List<mesh.wire.SecretView> all = http.call("GET", "/v1/mesh/secrets?module=" + module, null, DeclarationJson.MAPPER
                .getTypeFactory().constructCollectionType(List.class, mesh.wire.SecretView.class), Duration.ofSeconds(10),
                Duration.ofSeconds(15));
        return all.stream().anyMatch(s -> s.name().equals(name));
    }

    /** Sets secret {@code name} of {@code module} (over HTTPS to the controller, which seals it). */
    public void setSecret(String module, String name, String value) {
        http.call("PUT", "/v1/mesh/secrets/" + module + "/" + name, new mesh.wire.SecretValue(value), (Class<?>) null,
                Duration.ofSeconds(10), Duration.ofSeconds(15));
    }

    public void assign(String node, String module) {
        http.call("PUT", "/v1/mesh/nodes/" + node + "/modules/" + module, null, (Class<?>) null, Duration.ofSeconds(10),
                Duration.ofSeconds(15));
    }

    public PushReport push() {
        return http.call("POST", "/v1/mesh/push", new mesh.wire.PushRequest(null, false, true), PushReport.class,
                Duration.ofMinutes(5), Duration.ofSeconds(15));
    }

    private JsonHttp.Answer exchange(String method, String path, Map<String, String> headers, String body, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout);
        headers.forEach(b::header);
        HttpResponse<String> r = client.send(b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return new JsonHttp.Answer(r.statusCode(), r.body(), r.headers().firstValue("Retry-After").isPresent());
    }
}
