package mesh.host.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import mesh.model.EdgeTable;
import org.junit.jupiter.api.Test;

class CaddyConfigTest {

    static final EdgeTable TABLE = new EdgeTable("route-proxy.server", "internal", List.of(
            new EdgeTable.Route("searxng.zurag.be", "10.77.0.11:8080", "searxng"),
            new EdgeTable.Route("whoami.zurag.be", "10.77.0.12:8081", "whoami")));

    @Test
    void eachRouteIsAHostMatchedProxyOnTheHttpsServerAndTheAdminStaysOnTheContainer() throws Exception {
        JsonNode c = CaddyConfig.render(TABLE, null);

        assertEquals("0.0.0.0:2019", c.at("/admin/listen").asText());
        assertEquals("[\":443\"]", c.at("/apps/http/servers/edge/listen").toString());
        assertEquals("searxng.zurag.be", c.at("/apps/http/servers/edge/routes/0/match/0/host/0").asText());
        assertEquals("{file./tmp/mesh-upstreams/whoami.zurag.be}",
                c.at("/apps/http/servers/edge/routes/1/handle/0/upstreams/0/dial").asText(), "read from its file");
        assertEquals("internal", c.at("/apps/tls/automation/policies/0/issuers/0/module").asText());
        assertEquals("[\"searxng.zurag.be\",\"whoami.zurag.be\"]", c.at("/apps/tls/automation/policies/0/subjects").toString());
        assertTrue(CaddyConfig.same(new ObjectMapper().readTree(c.toString()), c), "read back, it is the same");
    }

    @Test
    void acmeLeavesCertificatesToCaddysDefaultIssuers() {
        JsonNode c = CaddyConfig.render(new EdgeTable("e", "acme", TABLE.routes()), null);

        assertTrue(c.at("/apps/tls").isMissingNode(), c.toString());
        assertTrue(c.at("/apps/pki").isMissingNode(), c.toString());
    }

    @Test
    void theTestHookGivesItsRouteAHandlerCaddyRefuses() {
        JsonNode c = CaddyConfig.render(TABLE, "whoami.zurag.be");

        assertEquals("reverse_proxy", c.at("/apps/http/servers/edge/routes/0/handle/0/handler").asText());
        assertEquals("mesh_test_refused", c.at("/apps/http/servers/edge/routes/1/handle/0/handler").asText());
        assertFalse(CaddyConfig.same(CaddyConfig.render(TABLE, null), c));
    }

    /** A wildcard comes after the exact names whatever the table's order, so an exact name is never shadowed by it. */
    @Test
    void aWildcardIsTriedAfterTheExactNamesAndGetsItsCertificateByPolicy() {
        List<EdgeTable.Route> routes = List.of(new EdgeTable.Route("*.zurag.be", "10.77.0.13:8084", "wild"),
                new EdgeTable.Route("searxng.zurag.be", "10.77.0.11:8080", "searxng"));
        JsonNode internal = CaddyConfig.render(new EdgeTable("e", "internal", routes), null);

        assertEquals("searxng.zurag.be", internal.at("/apps/http/servers/edge/routes/0/match/0/host/0").asText());
        assertEquals("*.zurag.be", internal.at("/apps/http/servers/edge/routes/1/match/0/host/0").asText());
        assertEquals("[\"*.zurag.be\",\"searxng.zurag.be\"]",
                internal.at("/apps/tls/automation/policies/0/subjects").toString(), "the internal CA signs the wildcard itself");

        JsonNode acme = CaddyConfig.render(new EdgeTable("e", "acme", routes), null);
        assertEquals("[\"*.zurag.be\"]", acme.at("/apps/tls/automation/policies/0/subjects").toString(), acme.toString());
        assertTrue(acme.at("/apps/tls/automation/policies/0/on_demand").asBoolean(), acme.toString());
        assertTrue(acme.at("/apps/tls/automation/policies/0/issuers").isMissingNode(), "Caddy's default public issuers");
    }

    /**
     * Every proxied route keeps its WebSockets and SSE streams open across a change of the routes
     * (stream_close_delay, caddyserver/caddy#5471) and retries a refused connection instead of answering 502; a Caddy
     * older than 2.7 gets the configuration without the field it would refuse.
     */
    @Test
    void eachRouteKeepsItsStreamsAcrossAChangeAndRetriesARefusedConnection() {
        JsonNode c = CaddyConfig.render(TABLE, null);
        for (int i = 0; i < 2; i++) {
            JsonNode handler = c.at("/apps/http/servers/edge/routes/" + i + "/handle/0");
            assertEquals("1h", handler.at("/stream_close_delay").asText(), handler.toString());
            assertEquals("5s", handler.at("/load_balancing/try_duration").asText(), handler.toString());
        }
        JsonNode old = CaddyConfig.render(TABLE, null, false, true);
        assertTrue(old.at("/apps/http/servers/edge/routes/0/handle/0/stream_close_delay").isMissingNode(), old.toString());
        assertEquals("5s", old.at("/apps/http/servers/edge/routes/0/handle/0/load_balancing/try_duration").asText());
    }

    /**
     * A change of a route's upstream alone (a cutover's switch) renders the same configuration, so it loads nothing;
     * a container that cannot hold the upstream files gets each address itself.
     */
    @Test
    void aNewUpstreamIsTheSameConfigurationAndWithoutFilesEachAddressIsDialled() {
        EdgeTable cutOver = new EdgeTable(TABLE.component(), TABLE.tls(), List.of(
                new EdgeTable.Route("searxng.zurag.be", "10.77.0.11:32771", "searxng"), TABLE.routes().get(1)));
        assertTrue(CaddyConfig.same(CaddyConfig.render(TABLE, null), CaddyConfig.render(cutOver, null)));

        JsonNode literal = CaddyConfig.render(cutOver, null, true, false);
        assertEquals("10.77.0.11:32771", literal.at("/apps/http/servers/edge/routes/0/handle/0/upstreams/0/dial").asText());
        assertFalse(CaddyConfig.same(CaddyConfig.render(TABLE, null, true, false), literal));
    }
}
