package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Node;
import mesh.model.Placement;
import org.junit.jupiter.api.Test;

/**
 * EdgeFirstTest: after a take's switch, an edge whose routes change is sent its acknowledged declaration
 * with only the new routes, its binder of the module untouched; an edge that is created, or whose routes
 * do not change, is left to the ordinary push.
 */
class EdgeFirstTest {

    static final Manifest WEB = ManifestYaml.parse("web.yaml", """
            module: web
            components:
              web.server:
                image: mesh-test/busybox:1
                ports: [8080]
            routes:
              www: {component: web.server, port: 8080, domain: zurag.be}
            """);
    static final Manifest APP = ManifestYaml.parse("app.yaml", """
            module: app
            components:
              app.server:
                image: mesh-test/busybox:1
                binds: [web.internal]
            """);
    static final Node N1 = new Node("n1", "10.77.0.11", "http://10.77.0.11:7701", null);
    static final Node N2 = new Node("n2", "10.77.0.12", "http://10.77.0.12:7701", null);
    static final Node N3 = new Node("n3", "10.77.0.13", "http://10.77.0.13:7701", "zurag.be");
    static final List<Node> NODES = List.of(N1, N2, N3);

    /** What each node acknowledged: {@code plan}'s declarations, at generation 4. */
    static List<PushDecision.Sent> acked(MeshPlan plan) {
        List<PushDecision.Sent> sent = new ArrayList<>();
        for (Node n : NODES) {
            var components = plan.nodes().getOrDefault(n.name(), List.of());
            sent.add(new PushDecision.Sent(n, 4, 4, DeclarationJson.write(new Declaration(n.name(), n.address(), 0, components,
                    plan.registryFor(components), plan.edges().get(n.name())))));
        }
        return sent;
    }

    @Test
    void theEdgeWhoseRoutesMoveIsSentOnlyItsNewRoutesFirst() {
        MeshPlan before = MeshPlanner.plan(List.of(WEB, APP), NODES, List.of(new Placement("web", "n1", "n1"),
                new Placement("app", "n3", "n3")));
        MeshPlan after = MeshPlanner.plan(List.of(WEB, APP), NODES, List.of(new Placement("web", "n2", "n2"),
                new Placement("app", "n3", "n3")));
        List<EdgeFirst.Send> sends = EdgeFirst.sends(after, acked(before));
        assertEquals(List.of("n3"), sends.stream().map(s -> s.node().name()).toList(), "only the edge node, n3");
        Declaration d = sends.get(0).declaration();
        assertEquals(5, d.generation());
        assertEquals(after.edges().get("n3"), d.edge(), "the new routes");
        assertEquals("10.77.0.12:8080", d.edge().routes().get(0).upstream(), "www.zurag.be proxies to n2 now");
        assertEquals(before.nodes().get("n3"), d.components(), "the binder on n3 is not replaced yet: the push does that");
        assertNotEquals(before.nodes().get("n3"), after.nodes().get("n3"), "(the push will: its hosts differ)");
        assertEquals(DeclarationJson.write(new Declaration("n3", "10.77.0.13", 0, d.components(), d.registry(), d.edge())),
                sends.get(0).content());

        assertEquals(List.of(), EdgeFirst.sends(after, acked(after)), "sent again: nothing left to send first");
    }

    @Test
    void anEdgeThatIsCreatedOrUnchangedIsLeftToThePush() {
        Manifest local = ManifestYaml.parse("web.yaml", """
                module: web
                components:
                  web.server:
                    image: mesh-test/busybox:1
                    ports: [8080]
                routes:
                  www: {component: web.server, port: 8080}
                """);
        Node n2Public = new Node("n2", "10.77.0.12", "http://10.77.0.12:7701", "n2.test");
        List<Node> nodes = List.of(N1, n2Public, N3);
        MeshPlan before = MeshPlanner.plan(List.of(local), nodes, List.of(new Placement("web", "n1", "n1")));
        MeshPlan after = MeshPlanner.plan(List.of(local), nodes, List.of(new Placement("web", "n2", "n2")));
        List<PushDecision.Sent> sent = new ArrayList<>();
        for (Node n : nodes) {
            var components = before.nodes().getOrDefault(n.name(), List.of());
            sent.add(new PushDecision.Sent(n, 4, 4, DeclarationJson.write(new Declaration(n.name(), n.address(), 0, components,
                    before.registryFor(components), before.edges().get(n.name())))));
        }
        assertEquals(List.of(), EdgeFirst.sends(after, sent), "n2's edge is created by the push, with its container");
        List<PushDecision.Sent> never = List.of(new PushDecision.Sent(N3, 0, 0, null));
        assertEquals(List.of(), EdgeFirst.sends(after, never), "a node never acknowledged gets the push");
    }
}
