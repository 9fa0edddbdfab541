package mesh.plan;

import static mesh.plan.MeshPlannerTest.ACE;
import static mesh.plan.MeshPlannerTest.ACE_ZURAG;
import static mesh.plan.MeshPlannerTest.CATALOGUE;
import static mesh.plan.MeshPlannerTest.NOVOX;
import static mesh.plan.MeshPlannerTest.STORE;
import static mesh.plan.MeshPlannerTest.component;
import static mesh.plan.MeshPlannerTest.on;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.EdgeTable;
import mesh.model.InvalidInput;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import org.junit.jupiter.api.Test;

class EdgePlanTest {

    static final Manifest TEST_EDGE = ManifestYaml.parse("route-proxy.yaml", """
            module: route-proxy
            components:
              route-proxy.server:
                image: mesh-test/caddy:2
                env: {MESH_EDGE_TLS: internal}
                ports: [80, 443]
            """);

    @Test
    void aNodeWithAPublicDomainAndRoutesRunsTheBuiltInEdgeWithItsRouteTable() {
        MeshPlan plan = MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE_ZURAG),
                on("mesh-store", "novox", "gitea", "novox", "searxng", "ace"));

        ComponentSpec edge = component(plan, "ace", "route-proxy.server");
        assertTrue(edge.image().startsWith("caddy:2@sha256:"), edge.image());
        assertEquals(List.of(80, 443), edge.ports());
        assertEquals(new EdgeTable("route-proxy.server", "acme",
                List.of(new EdgeTable.Route("searxng.zurag.be", "10.77.0.12:8080", "searxng"))), plan.edges().get("ace"));
        assertEquals(new EdgeTable("route-proxy.server", "acme",
                List.of(new EdgeTable.Route("git.novox.be", "10.77.0.11:3000", "gitea"))), plan.edges().get("novox"));
    }

    @Test
    void aNodeWithoutRoutesOrWithoutAPublicDomainRunsNoEdge() {
        MeshPlan plan = MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE), on("mesh-store", "novox", "searxng", "ace"));

        assertEquals(List.of("mesh-store"), plan.nodes().get("novox").stream().map(ComponentSpec::module).toList());
        assertEquals(List.of("searxng"), plan.nodes().get("ace").stream().map(ComponentSpec::module).toList());
        assertTrue(plan.edges().isEmpty(), plan.edges().toString());
    }

    @Test
    void theCataloguesRouteProxyReplacesTheBuiltInOneAndChoosesTheTlsPolicy() {
        List<Manifest> catalogue = new ArrayList<>(CATALOGUE);
        catalogue.add(TEST_EDGE);
        MeshPlan plan = MeshPlanner.plan(catalogue, List.of(ACE_ZURAG), on("searxng", "ace"));

        assertEquals("mesh-test/caddy:2", component(plan, "ace", "route-proxy.server").image());
        assertEquals("internal", plan.edges().get("ace").tls());
    }

    @Test
    void anEdgeAssignedByHandIsNotPlannedTwice() {
        List<Manifest> catalogue = new ArrayList<>(CATALOGUE);
        catalogue.add(TEST_EDGE);
        MeshPlan plan = MeshPlanner.plan(catalogue, List.of(ACE_ZURAG), on("searxng", "ace", "route-proxy", "ace"));

        assertEquals(1, plan.nodes().get("ace").stream().filter(c -> c.name().equals("route-proxy.server")).count());
    }

    /** Routes are data: a route added or removed changes the edge's table, never a component, so nothing is replaced. */
    @Test
    void aRouteChangeChangesTheTableAndNoComponent() {
        MeshPlan one = MeshPlanner.plan(CATALOGUE, List.of(ACE_ZURAG), on("searxng", "ace", "mesh-store", "ace"));
        MeshPlan two = MeshPlanner.plan(CATALOGUE, List.of(ACE_ZURAG),
                on("searxng", "ace", "mesh-store", "ace", "gitea", "ace"));

        assertEquals(component(one, "ace", "route-proxy.server"), component(two, "ace", "route-proxy.server"));
        assertEquals(component(one, "ace", "searxng.server"), component(two, "ace", "searxng.server"));
        assertEquals(List.of("git.zurag.be", "searxng.zurag.be"),
                two.edges().get("ace").routes().stream().map(EdgeTable.Route::name).toList());
    }

    @Test
    void aDeclarationCarriesItsEdgeThroughJsonAndOmitsItWhenThereIsNone() {
        MeshPlan plan = MeshPlanner.plan(CATALOGUE, List.of(ACE_ZURAG), on("searxng", "ace"));
        Declaration d = new Declaration("ace", "10.77.0.12", 3, plan.nodes().get("ace"), plan.edges().get("ace"));

        assertEquals(d, DeclarationJson.parse(DeclarationJson.write(d)));
        Declaration plain = new Declaration("ace", "10.77.0.12", 3, List.of(STORE_SPEC));
        assertFalse(DeclarationJson.write(plain).contains("edge"));
        assertNull(DeclarationJson.parse(DeclarationJson.write(plain)).edge());
    }

    @Test
    void aBadEdgeTableIsRefusedNamingEachProblem() {
        String json = DeclarationJson.write(new Declaration("ace", "10.77.0.12", 3, List.of(STORE_SPEC),
                new EdgeTable("route-proxy.server", "letsencrypt", List.of(
                        new EdgeTable.Route("searxng.zurag.be", "10.77.0.12", "searxng"),
                        new EdgeTable.Route("a b", "10.77.0.12:8080", "x"),
                        new EdgeTable.Route("searxng.zurag.be", "10.77.0.12:70000", "searxng")))));

        InvalidInput e = org.junit.jupiter.api.Assertions.assertThrows(InvalidInput.class, () -> DeclarationJson.parse(json));
        assertEquals(List.of(
                "edge.component: must name a component of this declaration, got 'route-proxy.server'",
                "edge.tls: must be 'acme' or 'internal', got 'letsencrypt'",
                "edge.routes[0].upstream: must be ADDRESS:PORT (an IPv4 address, a port 1-65535), got '10.77.0.12'",
                "edge.routes[1].name: not a host name: 'a b'",
                "edge.routes[2].name: searxng.zurag.be is routed twice",
                "edge.routes[2].upstream: must be ADDRESS:PORT (an IPv4 address, a port 1-65535), got '10.77.0.12:70000'"),
                e.problems());
    }

    static final ComponentSpec STORE_SPEC = mesh.model.Manifests.spec(STORE, "postgres.server", java.util.Map.of());
}
