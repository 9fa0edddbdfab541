package mesh.model;

import java.util.List;

/**
 * EdgeTable is what one edge node's Caddy serves: the routes as data, carried by the declaration
 * beside the components (docs/declaration.md, "edge"). A change to it reloads the edge's
 * configuration; it is not part of any component's spec digest, so it never replaces a container.
 *
 * @param component the edge's container on this node (a component of this declaration), whose
 *                  admin API the agent loads the routes into
 * @param tls       {@code acme} (certificates from a public CA, production) or {@code internal}
 *                  (Caddy's own CA, for test beds and private meshes)
 * @param routes    each routed name and where it is proxied to
 */
public record EdgeTable(String component, String tls, List<Route> routes) {

    /** TLS_ACME and TLS_INTERNAL are the two TLS policies an edge knows. */
    public static final String TLS_ACME = "acme";
    public static final String TLS_INTERNAL = "internal";

    public EdgeTable {
        routes = routes == null ? List.of() : List.copyOf(routes);
    }

    /**
     * Route is one routed name: {@code R.D} and the mesh address and port it is proxied to (the
     * port its component publishes on the node it runs on, which may be another node).
     *
     * @param name     the name clients ask for, e.g. {@code searxng.zurag.be}
     * @param upstream {@code address:port}
     * @param module   the module that serves it, for status and roster
     */
    public record Route(String name, String upstream, String module) {
    }
}
