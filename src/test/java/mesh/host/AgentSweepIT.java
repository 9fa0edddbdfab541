package mesh.host;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.io.File;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;

/**
 * AgentSweepIT sends every call of the host agent's API (read from its resource classes in
 * mesh.host and mesh.host.edge, so a call added later is swept too) a body over the API's limit,
 * a path whose names hold a NUL, and, where the call reads a body, malformed JSON. Each must be
 * answered with a 4xx and the JSON error body, never a 5xx or an empty body. The agent is the
 * packaged one, on loopback over plain HTTP with its test token, on the machine's own engine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentSweepIT {

    static final Map<Class<? extends java.lang.annotation.Annotation>, String> METHODS =
            Map.of(GET.class, "GET", POST.class, "POST", PUT.class, "PUT", DELETE.class, "DELETE");
    static final String OVERSIZED = "[\"" + "x".repeat((int) mesh.wire.RequestLimits.MAX_BODY_BYTES) + "\"]";
    static final String TOKEN = "agent-sweep-it-" + System.nanoTime();

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    java.nio.file.Path scratch;
    Process agent;
    String url;

    @BeforeAll
    void start() throws Exception {
        scratch = Files.createTempDirectory("mesh-agent-sweep-it");
        int port = PackagedMesh.freePort();
        url = "http://127.0.0.1:" + port;
        ProcessBuilder b = new ProcessBuilder(mesh.testbed.Launcher.shared().command(null, List.of("host", "serve")))
                .redirectErrorStream(true).redirectOutput(scratch.resolve("agent.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(Map.of("MESH_HOST_NODE", "sweep", "MESH_HOST_TOKEN", TOKEN, "MESH_HOST_LISTEN",
                "127.0.0.1:" + port, "MESH_HOST_STATE_DIR", Files.createDirectories(scratch.resolve("state")).toString(),
                "MESH_PLAIN_HTTP", "yes"));
        agent = b.start();
        PackagedMesh.await("the agent answers at " + url, Duration.ofSeconds(60), () -> {
            try {
                return send("GET", "/v1/status", null).statusCode() == 200;
            } catch (Exception e) {
                return false;
            }
        });
    }

    @AfterAll
    void stop() throws Exception {
        if (agent != null) {
            agent.destroy();
            if (!agent.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                agent.destroyForcibly();
            }
        }
        PackagedMesh.deleteTree(scratch);
    }

    @Test
    void everyCallRefusesAnOversizedBodyANulNameAndMalformedJsonWithAJsonError() throws Exception {
        List<Endpoint> endpoints = endpoints();
        assertTrue(endpoints.size() >= 10, "only " + endpoints.size() + " endpoints found");
        List<Executable> checks = new ArrayList<>();
        for (Endpoint e : endpoints) {
            String named = e.path().replaceAll("\\{[^}]+}", "x");
            if (e.method().equals("POST") || e.method().equals("PUT")) {
                checks.add(refused(e.method(), named, OVERSIZED, 413));
            }
            if (e.readsBody()) {
                checks.add(refused(e.method(), named, "{\"name\": ", 0));
            }
            checks.add(refused(e.method(), e.path().contains("{") ? e.path().replaceAll("\\{[^}]+}", "x%00")
                    : named + "?x=%00", e.readsBody() ? "{}" : null, 400));
        }
        assertAll(checks);
    }

    HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + TOKEN)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A check that {@code method path} with {@code body} gets a 4xx ({@code status} if not 0) and a JSON error. */
    Executable refused(String method, String path, String body, int status) throws Exception {
        HttpResponse<String> r = send(method, path, body);
        String shown = method + " " + path + (body == null ? "" : " (" + body.length() + " chars of body)")
                + " → " + r.statusCode() + " " + (r.body().length() > 300 ? r.body().substring(0, 300) : r.body());
        return () -> {
            assertTrue(status == 0 ? r.statusCode() / 100 == 4 : r.statusCode() == status, shown);
            assertTrue(r.body().startsWith("{\"error\":\""), "not the JSON error body: " + shown);
        };
    }

    /** Endpoint is one call: method, path template, and whether it reads a request body. */
    record Endpoint(String method, String path, boolean readsBody) {
    }

    static List<Endpoint> endpoints() throws Exception {
        List<Endpoint> endpoints = new ArrayList<>();
        for (String pkg : List.of("mesh.host", "mesh.host.edge")) {
            java.nio.file.Path dir = PackagedMesh.buildDir().resolve("classes/" + pkg.replace('.', '/'));
            List<String> names;
            try (Stream<java.nio.file.Path> files = Files.list(dir)) {
                names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class") && !n.contains("$"))
                        .sorted().toList();
            }
            for (String name : names) {
                Class<?> type = Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()));
                Path root = type.getAnnotation(Path.class);
                if (root == null || !root.value().startsWith("/v1")) {
                    continue;
                }
                for (Method m : type.getDeclaredMethods()) {
                    METHODS.forEach((annotation, verb) -> {
                        if (m.isAnnotationPresent(annotation)) {
                            Path sub = m.getAnnotation(Path.class);
                            boolean body = Stream.of(m.getParameters()).anyMatch(p -> p.getAnnotations().length == 0);
                            endpoints.add(new Endpoint(verb, root.value() + (sub == null ? "" : (sub.value().startsWith("/")
                                    ? "" : "/") + sub.value()), body));
                        }
                    });
                }
            }
        }
        return endpoints;
    }
}
