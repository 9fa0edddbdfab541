package mesh.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * TestbedEdge writes the edge's module as the test bed runs it: the shipped {@code route-proxy.yaml} on the test bed's
 * Caddy image ({@code mesh-test/caddy:2.11}: no image can be pulled here) with Caddy's internal CA instead of ACME (no
 * public name reaches the test bed) and a 3 s stop timeout.
 */
final class TestbedEdge {

    private TestbedEdge() {
    }

    /** Writes {@code route-proxy.yaml} into the catalogue folder {@code dir}. */
    static void write(Path dir) throws IOException {
        try (InputStream in = TestbedEdge.class.getResourceAsStream("/mesh/edge/route-proxy.yaml")) {
            String builtIn = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String edge = builtIn.replaceFirst("image: caddy:2@sha256:[0-9a-f]+", "image: mesh-test/caddy:2.11")
                    .replace("MESH_EDGE_TLS: acme", "MESH_EDGE_TLS: internal").replace("stop-timeout: 10s", "stop-timeout: 3s");
            if (!edge.contains("image: mesh-test/caddy:2.11") || !edge.contains("MESH_EDGE_TLS: internal")) {
                throw new IllegalStateException("the shipped route-proxy.yaml changed shape; the test bed's edge was not made from it:\n" + edge);
            }
            Files.writeString(dir.resolve("route-proxy.yaml"), edge);
        }
    }
}
