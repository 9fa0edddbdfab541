package mesh.wire;

import java.util.List;

/**
 * EdgeStatus is an edge node's part of {@code GET /v1/status}: the routes its Caddy serves, since
 * when, and why the last configuration was refused, if it was (Caddy then keeps serving the routes
 * it had).
 *
 * @param component   the edge container
 * @param containerId the container the routes were loaded into
 * @param tls         {@code acme} or {@code internal}
 * @param routes      the names Caddy serves now, as loaded
 * @param loadedAt    when they were loaded (or first seen loaded), ISO-8601; null if never
 * @param pending     the declaration's names when they differ from those loaded
 * @param error       why the declaration's routes are not served (Caddy's message), else null
 * @param refused     whether Caddy refused them (a fault to fix), rather than not being reachable yet
 */
public record EdgeStatus(String component, String containerId, String tls, List<String> routes, String loadedAt,
                         List<String> pending, String error, boolean refused) {

    public EdgeStatus {
        routes = routes == null ? List.of() : List.copyOf(routes);
        pending = pending == null ? List.of() : List.copyOf(pending);
    }
}
