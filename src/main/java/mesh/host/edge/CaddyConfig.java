package mesh.host.edge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Comparator;
import java.util.List;
import mesh.model.EdgeTable;

/**
 * CaddyConfig renders an edge's route table as Caddy's JSON configuration (what {@code POST /load}
 * takes). Pure. One HTTPS server on :443 with a host-matched reverse proxy per route (wildcards
 * {@code *.D} after the exact names, so an exact name wins); Caddy's
 * automatic HTTPS gets each name a certificate and answers plain HTTP on :80 with a redirect. The
 * admin API stays on the container's own address ({@link #ADMIN_LISTEN}), never published.
 */
public final class CaddyConfig {

    /** ADMIN_PORT and ADMIN_LISTEN: where Caddy's admin API listens inside the edge container. */
    public static final int ADMIN_PORT = 2019;
    public static final String ADMIN_LISTEN = "0.0.0.0:" + ADMIN_PORT;
    /** REFUSED_HANDLER is a handler Caddy does not have: the test hook's way to make it refuse a config. */
    static final String REFUSED_HANDLER = "mesh_test_refused";

    private static final ObjectMapper JSON = new ObjectMapper();

    private CaddyConfig() {
    }

    /**
     * The configuration for this table. {@code refuse} is a test hook (the agent's
     * {@code MESH_EDGE_TEST_REFUSE}): the route of that name gets a handler Caddy does not know, so
     * Caddy refuses the whole configuration; null in normal use.
     */
    public static ObjectNode render(EdgeTable table, String refuse) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("admin").put("listen", ADMIN_LISTEN);
        ObjectNode apps = root.putObject("apps");
        ObjectNode server = apps.putObject("http").putObject("servers").putObject("edge");
        server.putArray("listen").add(":443");
        ArrayNode routes = server.putArray("routes");
        // Caddy tries routes in order and the first match ends the search: exact names before wildcards.
        List<EdgeTable.Route> ordered = table.routes().stream()
                .sorted(Comparator.comparing(CaddyConfig::wildcard)).toList();
        for (EdgeTable.Route r : ordered) {
            ObjectNode route = routes.addObject();
            route.putArray("match").addObject().putArray("host").add(r.name());
            ObjectNode handler = route.putArray("handle").addObject();
            if (r.name().equals(refuse)) {
                handler.put("handler", REFUSED_HANDLER);
            } else {
                handler.put("handler", "reverse_proxy").putArray("upstreams").addObject().put("dial", r.upstream());
            }
            route.put("terminal", true);
        }
        if (EdgeTable.TLS_INTERNAL.equals(table.tls()) && !table.routes().isEmpty()) {
            ArrayNode subjects = apps.putObject("tls").putObject("automation").putArray("policies").addObject()
                    .<ObjectNode>set("issuers", JSON.createArrayNode().add(JSON.createObjectNode().put("module", "internal")))
                    .putArray("subjects");
            table.routes().forEach(r -> subjects.add(r.name()));
            // The root stays in Caddy's data volume; a container has no trust store worth changing.
            apps.putObject("pki").putObject("certificate_authorities").putObject("local").put("install_trust", false);
        } else if (table.routes().stream().anyMatch(CaddyConfig::wildcard)) {
            // A public CA signs *.D only over a DNS challenge, which needs a DNS provider built into
            // Caddy; the stock image has none, so each name under D gets its own certificate at its
            // first handshake (on-demand TLS), over the same HTTP challenge as the exact names.
            ArrayNode subjects = apps.putObject("tls").putObject("automation").putArray("policies").addObject()
                    .put("on_demand", true).putArray("subjects");
            table.routes().stream().filter(CaddyConfig::wildcard).forEach(r -> subjects.add(r.name()));
        }
        return root;
    }

    private static boolean wildcard(EdgeTable.Route r) {
        return r.name().startsWith("*.");
    }

    /** Whether Caddy holds exactly this configuration (JSON equality, so key order does not matter). */
    public static boolean same(JsonNode loaded, JsonNode wanted) {
        return loaded != null && loaded.equals(wanted);
    }
}
