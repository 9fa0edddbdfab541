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
        return render(table, refuse, true, true);
    }

    /**
     * STREAM_CLOSE_DELAY is how long a WebSocket or SSE stream the edge proxies outlives a change of its routes. Caddy
     * re-provisions every handler on each {@code POST /load}, and from 2.6 on it closed the streams of the handlers
     * it unloads at once, so every route change (a cutover's too) cut every WebSocket of the edge
     * (caddyserver/caddy#5471, #6420). Caddy 2.7 added {@code stream_close_delay} to the reverse proxy for exactly
     * that: the old handler's streams stay open for that long after the change, and a client that reconnects meanwhile
     * reaches the new configuration (Caddy's reverse_proxy documentation, "stream_close_delay").
     */
    public static final String STREAM_CLOSE_DELAY = "1h";
    /**
     * TRY_DURATION is how long a request whose upstream refuses the connection is retried (Caddy's {@code
     * load_balancing.try_duration}) instead of answered 502: it covers a copy that stops as a cutover drains it.
     */
    public static final String TRY_DURATION = "5s";

    /**
     * The configuration for this table; {@code streams} false leaves out {@link #STREAM_CLOSE_DELAY}, for a Caddy
     * older than 2.7, which refuses the field ({@link EdgeKeeper} learns that from its answer); {@code files} true
     * names each route's upstream by its file ({@link UpstreamFiles}: a change of upstream is then no load), false
     * gives the address itself (a Caddy older than 2.8, or a container the files cannot be written in).
     */
    public static ObjectNode render(EdgeTable table, String refuse, boolean streams, boolean files) {
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
                handler.put("handler", "reverse_proxy").putArray("upstreams").addObject()
                        .put("dial", files ? UpstreamFiles.dial(r.name()) : r.upstream());
                handler.putObject("load_balancing").put("try_duration", TRY_DURATION).put("try_interval", "100ms");
                if (streams) {
                    handler.put("stream_close_delay", STREAM_CLOSE_DELAY);
                }
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
