package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import mesh.model.ComponentSpec;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.model.ContainerRequest;
import mesh.model.SpecDigest;
import org.junit.jupiter.api.Test;

class MeshPlannerTest {

    static final Manifest STORE = ManifestYaml.parse("store.yaml", """
            module: mesh-store
            components:
              postgres.server:
                image: mesh-test/postgres:15
                volumes: {data: /var/lib/postgresql/data}
                ports: [5432]
                stop-timeout: 60s
            """);
    static final Manifest GITEA = ManifestYaml.parse("gitea.yaml", """
            module: gitea
            components:
              gitea.server:
                image: gitea/gitea:1.22
                binds: [mesh-store.internal]
                ports: [3000]
                after: [gitea.cache]
              gitea.cache:
                image: valkey/valkey:8
            routes:
              git: {component: gitea.server, port: 3000}
            """);
    static final Manifest SEARXNG = ManifestYaml.parse("searxng.yaml", """
            module: searxng
            components:
              searxng.server:
                image: searxng/searxng:1
                ports: [8080]
            routes:
              searxng: {component: searxng.server, port: 8080}
            """);
    static final Manifest UMAMI = ManifestYaml.parse("umami.yaml", """
            module: umami
            components:
              umami.server:
                image: umami:2
                binds: [mesh-store.internal, git.novox.be]
            """);

    static final Node NOVOX = new Node("novox", "10.77.0.11", "http://10.77.0.11:7701", "novox.be");
    static final Node ACE = new Node("ace", "10.77.0.12", "http://10.77.0.12:7701", null);
    static final Node ACE_ZURAG = new Node("ace", "10.77.0.12", "http://10.77.0.12:7701", "zurag.be");
    static final List<Manifest> CATALOGUE = List.of(STORE, GITEA, SEARXNG, UMAMI);

    static List<Placement> on(String... moduleNode) {
        java.util.ArrayList<Placement> placements = new java.util.ArrayList<>();
        for (int i = 0; i < moduleNode.length; i += 2) {
            placements.add(new Placement(moduleNode[i], moduleNode[i + 1], moduleNode[i + 1]));
        }
        return placements;
    }

    static ComponentSpec component(MeshPlan plan, String node, String name) {
        return plan.nodes().get(node).stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void eachComponentCarriesExactlyTheNamesItBinds() {
        MeshPlan plan = MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE),
                on("mesh-store", "novox", "gitea", "novox", "umami", "ace"));
        assertEquals(Map.of("mesh-store.internal", "10.77.0.11"), component(plan, "novox", "gitea.server").hosts());
        assertEquals(Map.of(), component(plan, "novox", "gitea.cache").hosts());
        assertEquals(Map.of("mesh-store.internal", "10.77.0.11", "git.novox.be", "10.77.0.11"),
                component(plan, "ace", "umami.server").hosts());
        assertEquals(List.of("git.novox.be", "gitea.internal", "mesh-store.internal", "umami.internal"),
                List.copyOf(plan.roster().keySet()));
        assertEquals("gitea", component(plan, "novox", "gitea.server").network());
        assertEquals(60, component(plan, "novox", "postgres.server").stopTimeout());
    }

    /** Invariant 2 (docs/design.md): a new routed name and a new public domain change no component that does not bind them. */
    @Test
    void aNewRouteOrPublicDomainChangesNothingThatDoesNotBindIt() {
        MeshPlan before = MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE),
                on("mesh-store", "novox", "gitea", "novox", "umami", "ace"));
        MeshPlan after = MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE_ZURAG),
                on("mesh-store", "novox", "gitea", "novox", "umami", "ace", "searxng", "ace"));
        assertTrue(after.roster().containsKey("searxng.zurag.be"));
        for (String node : List.of("novox", "ace")) {
            for (ComponentSpec c : before.nodes().get(node)) {
                assertEquals(SpecDigest.of(ContainerRequest.of(c, null)),
                        SpecDigest.of(ContainerRequest.of(component(after, node, c.name()), null)), c.name());
            }
        }
    }

    /** Names follow where a module runs (taken), not where it is assigned (docs/design.md, invariant 4). */
    @Test
    void namesFollowTakenNotAssigned() {
        List<Placement> placements = List.of(new Placement("mesh-store", "ace", "novox"),
                new Placement("gitea", "novox", "novox"));
        MeshPlan plan = MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE), placements);
        assertEquals("10.77.0.11", plan.roster().get("mesh-store.internal").address());
        assertEquals(List.of(), plan.nodes().get("ace"));
    }

    @Test
    void aMovedNameChangesExactlyItsBinders() {
        MeshPlan before = MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE),
                on("mesh-store", "novox", "gitea", "novox", "umami", "ace"));
        MeshPlan after = MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE),
                on("mesh-store", "ace", "gitea", "novox", "umami", "ace"));
        assertEquals(Map.of("mesh-store.internal", "10.77.0.12"), component(after, "novox", "gitea.server").hosts());
        assertEquals(SpecDigest.of(ContainerRequest.of(component(before, "novox", "gitea.cache"), null)),
                SpecDigest.of(ContainerRequest.of(component(after, "novox", "gitea.cache"), null)));
    }

    /**
     * mesh node set NAME --address: only what binds one of the node's names, or publishes ports on
     * the node's address (the digest carries it), gets another digest and is replaced; nothing else,
     * on any node.
     */
    @Test
    void aNodeAddressMoveChangesOnlyTheBindersOfItsNames() {
        List<Placement> placements = on("mesh-store", "novox", "gitea", "novox", "umami", "ace", "searxng", "ace");
        MeshPlan before = MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE), placements);
        Node aceMoved = new Node("ace", "10.77.0.99", ACE.agent(), null);
        assertEquals(List.of("ace/searxng.server"), changed(before, MeshPlanner.plan(CATALOGUE, List.of(NOVOX, aceMoved), placements),
                        List.of(NOVOX, ACE), List.of(NOVOX, aceMoved)),
                "nobody binds ace's names (umami.internal, searxng.internal); only searxng publishes there (8080, its route's)");
        Node novoxMoved = new Node("novox", "10.77.0.98", NOVOX.agent(), "novox.be");
        // novox serves routes (public domain novox.be), so its edge publishes 80/443 there and moves too
        assertEquals(List.of("ace/umami.server", "novox/gitea.server", "novox/postgres.server", "novox/route-proxy.server"),
                changed(before, MeshPlanner.plan(CATALOGUE, List.of(novoxMoved, ACE), placements),
                        List.of(NOVOX, ACE), List.of(novoxMoved, ACE)));
    }

    /** node/component of every component whose digest (published on its node's address) differs between two plans. */
    static List<String> changed(MeshPlan before, MeshPlan after, List<Node> nodesBefore, List<Node> nodesAfter) {
        java.util.function.BiFunction<List<Node>, String, String> address = (nodes, name) ->
                nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow().address();
        List<String> changed = new java.util.ArrayList<>();
        before.nodes().forEach((node, specs) -> specs.forEach(spec -> {
            if (!SpecDigest.of(ContainerRequest.of(spec, address.apply(nodesBefore, node))).equals(SpecDigest.of(
                    ContainerRequest.of(component(after, node, spec.name()), address.apply(nodesAfter, node))))) {
                changed.add(node + "/" + spec.name());
            }
        }));
        changed.sort(null);
        return changed;
    }

    @Test
    void aBoundNameNobodyServesFailsThePlanNamingNodeComponentNameAndWhatWouldServeIt() {
        PlanFailure f = assertThrows(PlanFailure.class, () -> MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE),
                on("gitea", "novox")));
        assertEquals(List.of("node novox: component gitea.server (gitea) binds 'mesh-store.internal', which no node serves; "
                + "module mesh-store would serve it once it runs on a node (assign it)"), f.problems());
    }

    @Test
    void aRouteOnANodeWithoutThatDomainIsExplained() {
        PlanFailure f = assertThrows(PlanFailure.class, () -> MeshPlanner.plan(CATALOGUE, List.of(NOVOX, ACE),
                on("mesh-store", "novox", "gitea", "ace", "umami", "ace")));
        assertTrue(f.getMessage().contains("binds 'git.novox.be', which no node serves; route git of module gitea would serve it "
                + "on a node with public domain novox.be (it runs on ace, which has no public domain; the route's 'domain: novox.be'"
                + " serves it through the edge of the node with that public domain)"), f.getMessage());
    }

    @Test
    void twoModulesClaimingOneRouteFailThePlan() {
        Manifest other = ManifestYaml.parse("other.yaml", """
                module: other
                components:
                  other.server: {image: x:1, ports: [8081]}
                routes:
                  git: {component: other.server, port: 8081}
                """);
        PlanFailure f = assertThrows(PlanFailure.class, () -> MeshPlanner.plan(List.of(STORE, GITEA, other),
                List.of(NOVOX), on("mesh-store", "novox", "gitea", "novox", "other", "novox")));
        assertEquals(List.of("route git.novox.be is claimed by module gitea and by module other"), f.problems());
    }

    @Test
    void twoModulesPublishingOnePortOnOneNodeFailThePlan() {
        Manifest other = ManifestYaml.parse("other.yaml", """
                module: other
                components:
                  other.db: {image: x:1, ports: [5432]}
                """);
        PlanFailure f = assertThrows(PlanFailure.class, () -> MeshPlanner.plan(List.of(STORE, other),
                List.of(NOVOX), on("mesh-store", "novox", "other", "novox")));
        assertTrue(f.getMessage().contains("node novox: component other.db: port 5432 is already published by postgres.server"),
                f.getMessage());
    }
}
