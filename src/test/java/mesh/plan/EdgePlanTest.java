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
import mesh.model.Node;
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

    static final Node G14 = new Node("g14", "10.77.0.13", "http://10.77.0.13:7701", null);
    static final Manifest ELSEWHERE = ManifestYaml.parse("elsewhere.yaml", """
            module: elsewhere
            components:
              elsewhere.server: {image: x:1, ports: [8083]}
            routes:
              elsewhere: {component: elsewhere.server, port: 8083, domain: zurag.be}
            """);
    static final Manifest WILD = ManifestYaml.parse("wild.yaml", """
            module: wild
            components:
              wild.server: {image: x:1, ports: [8084]}
            routes:
              "*": {component: wild.server, port: 8084, domain: zurag.be}
            """);

    /**
     * A route that names a domain is served by the edge of the node with that public domain, and
     * resolves there, while the module runs on a node with none; the proxy goes to where it runs.
     */
    @Test
    void aRouteNamingADomainIsServedByThatDomainsEdgeForAModuleOnANodeWithoutOne() {
        List<Manifest> catalogue = new ArrayList<>(CATALOGUE);
        catalogue.add(ELSEWHERE);
        MeshPlan plan = MeshPlanner.plan(catalogue, List.of(ACE_ZURAG, G14), on("elsewhere", "g14"));

        assertEquals(new MeshPlan.RosterEntry("elsewhere.zurag.be", "10.77.0.12", "ace", "elsewhere", "route"),
                plan.roster().get("elsewhere.zurag.be"));
        assertEquals(List.of(new EdgeTable.Route("elsewhere.zurag.be", "10.77.0.13:8083", "elsewhere")),
                plan.edges().get("ace").routes());
        assertEquals(List.of("route-proxy.server"), plan.nodes().get("ace").stream().map(ComponentSpec::name).toList());
        assertEquals(List.of("elsewhere.server"), plan.nodes().get("g14").stream().map(ComponentSpec::name).toList());
        assertFalse(plan.edges().containsKey("g14"));
    }

    /** A route without a domain, on a node without one, is not served; with a domain it follows the domain, not the node's. */
    @Test
    void aRouteWithoutADomainFollowsItsNodesDomainAndOneWithADomainKeepsIt() {
        Node novox = MeshPlannerTest.NOVOX;
        List<Manifest> catalogue = new ArrayList<>(CATALOGUE);
        catalogue.add(ELSEWHERE);
        MeshPlan plan = MeshPlanner.plan(catalogue, List.of(novox, ACE_ZURAG, G14),
                on("searxng", "g14", "elsewhere", "novox", "gitea", "novox", "mesh-store", "novox"));

        assertNull(plan.roster().get("searxng.zurag.be"));
        assertEquals("ace", plan.roster().get("elsewhere.zurag.be").node());
        assertNull(plan.roster().get("elsewhere.novox.be"));
        assertEquals(List.of(new EdgeTable.Route("elsewhere.zurag.be", "10.77.0.11:8083", "elsewhere")),
                plan.edges().get("ace").routes());
        assertEquals(List.of("git.novox.be"), plan.edges().get("novox").routes().stream().map(EdgeTable.Route::name).toList());
    }

    @Test
    void aRouteWhoseDomainNoNodeOrSeveralNodesHaveFailsThePlanNamingIt() {
        List<Manifest> catalogue = new ArrayList<>(CATALOGUE);
        catalogue.add(ELSEWHERE);
        PlanFailure none = org.junit.jupiter.api.Assertions.assertThrows(PlanFailure.class,
                () -> MeshPlanner.plan(catalogue, List.of(MeshPlannerTest.NOVOX, G14), on("elsewhere", "g14")));
        assertEquals(List.of("route elsewhere.zurag.be of module elsewhere (on node g14): zurag.be is no node's public domain;"
                + " 'mesh node public-domain NODE zurag.be' makes NODE's edge serve it"), none.problems());

        Node other = new Node("other", "10.77.0.14", "http://10.77.0.14:7701", "zurag.be");
        PlanFailure two = org.junit.jupiter.api.Assertions.assertThrows(PlanFailure.class,
                () -> MeshPlanner.plan(catalogue, List.of(ACE_ZURAG, G14, other), on("elsewhere", "g14")));
        assertEquals(List.of("route elsewhere.zurag.be of module elsewhere (on node g14): zurag.be is the public domain of"
                + " nodes ace, other; one node serves a domain's routes"), two.problems());
    }

    /** The wildcard route is *.D on the edge, and a component binding any name under D resolves it there. */
    @Test
    void aWildcardRouteIsServedAsStarDotDomainAndResolvesTheNamesUnderIt() {
        Manifest binder = ManifestYaml.parse("binder.yaml", """
                module: binder
                components:
                  binder.server: {image: x:1, binds: [anything.zurag.be, searxng.zurag.be]}
                """);
        List<Manifest> catalogue = new ArrayList<>(CATALOGUE);
        catalogue.add(WILD);
        catalogue.add(binder);
        MeshPlan plan = MeshPlanner.plan(catalogue, List.of(ACE_ZURAG, G14),
                on("wild", "g14", "searxng", "ace", "binder", "g14"));

        assertEquals(new MeshPlan.RosterEntry("*.zurag.be", "10.77.0.12", "ace", "wild", "route"), plan.roster().get("*.zurag.be"));
        assertEquals(List.of(new EdgeTable.Route("*.zurag.be", "10.77.0.13:8084", "wild"),
                new EdgeTable.Route("searxng.zurag.be", "10.77.0.12:8080", "searxng")), plan.edges().get("ace").routes());
        assertEquals(java.util.Map.of("anything.zurag.be", "10.77.0.12", "searxng.zurag.be", "10.77.0.12"),
                component(plan, "g14", "binder.server").hosts());
        Declaration d = new Declaration("ace", "10.77.0.12", 1, plan.nodes().get("ace"), plan.edges().get("ace"));
        assertEquals(d, DeclarationJson.parse(DeclarationJson.write(d)), "a wildcard name passes the agent's check");
    }

    static final ComponentSpec STORE_SPEC = mesh.model.Manifests.spec(STORE, "postgres.server", java.util.Map.of());
}
