package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
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
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * ApiSweepIT sends every call of the controller's API (read from its resource classes, as
 * e2e's ApiEndpoints does, so a call added later is swept too) three bad requests: a body over the
 * API's limit, a path whose names hold a NUL, and malformed JSON. Each must be answered with a 4xx
 * and the JSON error body, never a 5xx or an empty body, and leave the store as it was.
 */
@QuarkusTest
class ApiSweepIT {

    static final Map<Class<? extends java.lang.annotation.Annotation>, String> METHODS =
            Map.of(GET.class, "GET", POST.class, "POST", PUT.class, "PUT", DELETE.class, "DELETE");
    static final String OVERSIZED = "[\"" + "x".repeat((int) mesh.wire.RequestLimits.MAX_BODY_BYTES) + "\"]";

    @Inject
    MeshController controller;

    @Inject
    AgroalDataSource dataSource;

    @TestHTTPResource("/")
    URL root;

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    @BeforeEach
    void start() {
        if (!controller.serving()) {
            String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
            controller.start(new ControllerSettings(url, "sweep-it-" + System.nanoTime(), ControllerSettings.DEFAULT_PUSH_BUDGET, 0));
        }
        StoreSnapshot.wipe(dataSource);
    }

    @Test
    void everyCallRefusesAnOversizedBodyANulNameAndMalformedJsonWithAJsonError() throws Exception {
        List<String[]> endpoints = endpoints();
        assertTrue(endpoints.size() >= 20, "only " + endpoints.size() + " endpoints found");
        String before = StoreSnapshot.of(dataSource);
        List<Executable> checks = new ArrayList<>();
        for (String[] e : endpoints) {
            String method = e[0];
            String named = e[1].replaceAll("\\{[^}]+}", "x");
            boolean takesBody = method.equals("POST") || method.equals("PUT");
            if (takesBody) {
                checks.add(refused(method, named, OVERSIZED, 413));
                checks.add(refused(method, named, "{\"name\": ", 0));
            }
            if (e[1].contains("{")) {
                checks.add(refused(method, e[1].replaceAll("\\{[^}]+}", "x%00"), takesBody ? "{}" : null, 400));
            } else {
                checks.add(refused(method, named + "?x=%00", takesBody ? "{}" : null, 400));
            }
        }
        assertAll(checks);
        assertEquals(before, StoreSnapshot.of(dataSource), "the store changed");
    }

    /** A check that {@code method path} with {@code body} gets a 4xx ({@code status} if not 0) and a JSON error. */
    Executable refused(String method, String path, String body, int status) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(root.toString().replaceAll("/+$", "") + path))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + controller.settings().token())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        String shown = method + " " + path + (body == null ? "" : " (" + Math.min(body.length(), 40) + "+ chars of body)")
                + " → " + r.statusCode() + " " + (r.body().length() > 300 ? r.body().substring(0, 300) : r.body());
        return () -> {
            assertTrue(status == 0 ? r.statusCode() / 100 == 4 : r.statusCode() == status, shown);
            assertTrue(r.body().startsWith("{\"error\":\""), "not the JSON error body: " + shown);
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), shown);
        };
    }

    /** Every endpoint of the controller's API as {method, path template}: its resource classes under /v1/mesh. */
    static List<String[]> endpoints() throws Exception {
        List<String[]> endpoints = new ArrayList<>();
        java.nio.file.Path dir = PackagedMesh.buildDir().resolve("classes/mesh/controller");
        List<String> names;
        try (Stream<java.nio.file.Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class") && !n.contains("$"))
                    .sorted().toList();
        }
        for (String name : names) {
            Class<?> type = Class.forName("mesh.controller." + name.substring(0, name.length() - ".class".length()));
            Path rootPath = type.getAnnotation(Path.class);
            if (rootPath == null || !rootPath.value().startsWith("/v1/mesh")) {
                continue;
            }
            for (Method m : type.getDeclaredMethods()) {
                METHODS.forEach((annotation, verb) -> {
                    if (m.isAnnotationPresent(annotation)) {
                        Path sub = m.getAnnotation(Path.class);
                        endpoints.add(new String[] {verb, rootPath.value() + (sub == null ? "" : (sub.value().startsWith("/")
                                ? "" : "/") + sub.value())});
                    }
                });
            }
        }
        return endpoints;
    }
}
