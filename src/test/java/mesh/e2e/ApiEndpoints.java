package mesh.e2e;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mesh.testbed.PackagedMesh;

/**
 * ApiEndpoints are every call of the controller's API ({@link #controller}), read from its resource classes (each
 * class of mesh.controller with a {@code @Path} under {@code /v1/mesh}), so a test that must cover
 * every endpoint covers one added later without being told; {@link #agent} the same of the host
 * agent's API (mesh.host and mesh.host.edge, under {@code /v1}).
 */
final class ApiEndpoints {

    private static final Map<Class<? extends java.lang.annotation.Annotation>, String> METHODS =
            Map.of(GET.class, "GET", POST.class, "POST", PUT.class, "PUT", DELETE.class, "DELETE");

    private ApiEndpoints() {
    }

    /** Each endpoint as {method, path template}. */
    static List<String[]> controller() throws IOException, ClassNotFoundException {
        return of("mesh.controller", "/v1/mesh");
    }

    /** Each endpoint of the host agent, as {method, path} with every path parameter set to {@code x}. */
    static List<String[]> agent() throws IOException, ClassNotFoundException {
        List<String[]> endpoints = new ArrayList<>(of("mesh.host", "/v1"));
        endpoints.addAll(of("mesh.host.edge", "/v1"));
        endpoints.replaceAll(e -> new String[] {e[0], e[1].replaceAll("\\{[^}]+}", "x")});
        return endpoints;
    }

    private static List<String[]> of(String pkg, String prefix) throws IOException, ClassNotFoundException {
        List<String[]> endpoints = new ArrayList<>();
        java.nio.file.Path dir = PackagedMesh.buildDir().resolve("classes/" + pkg.replace('.', '/'));
        List<String> names;
        try (Stream<java.nio.file.Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class") && !n.contains("$"))
                    .sorted().toList();
        }
        for (String name : names) {
            Class<?> type = Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()));
            Path root = type.getAnnotation(Path.class);
            if (root == null || !root.value().startsWith(prefix)) {
                continue;
            }
            for (Method m : type.getDeclaredMethods()) {
                METHODS.forEach((annotation, verb) -> {
                    if (m.isAnnotationPresent(annotation)) {
                        Path sub = m.getAnnotation(Path.class);
                        endpoints.add(new String[] {verb, root.value() + (sub == null ? "" : (sub.value().startsWith("/")
                                ? "" : "/") + sub.value())});
                    }
                });
            }
        }
        return endpoints;
    }
}
