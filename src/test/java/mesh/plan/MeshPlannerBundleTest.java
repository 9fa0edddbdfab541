package mesh.plan;

import static mesh.plan.MeshPlannerTest.NOVOX;
import static mesh.plan.MeshPlannerTest.ACE;
import static mesh.plan.MeshPlannerTest.STORE;
import static mesh.plan.MeshPlannerTest.on;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import mesh.model.ComponentSpec;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import org.junit.jupiter.api.Test;

/**
 * MeshPlannerBundleTest: a process's bundle is pinned to the digest the controller resolved before planning,
 * the artifact store is the node where mesh-registry runs, and a bundle that cannot be resolved, or a port
 * claimed by a process and a container on one node, fails the plan naming them.
 */
class MeshPlannerBundleTest {

    static final String PIN = "it/web@sha256:" + "ab".repeat(32);
    static final Manifest REGISTRY = ManifestYaml.parse("registry.yaml", """
            module: mesh-registry
            components:
              mesh-registry.server: {image: mesh-test/registry:2, ports: [5000]}
            """);
    static final Manifest WEB = ManifestYaml.parse("web.yaml", """
            module: web
            components:
              web.app:
                bundle: it/web:1
                binds: [mesh-store.internal]
                ports: [8080]
                volumes: {data: /data}
            """);

    @Test
    void aTagIsPinnedToTheResolvedDigestAndTheRegistryIsWhereMeshRegistryRuns() {
        MeshPlan plan = MeshPlanner.plan(List.of(STORE, REGISTRY, WEB), List.of(NOVOX, ACE),
                on("mesh-store", "novox", "mesh-registry", "novox", "web", "ace"),
                new BundlePins(Map.of("it/web:1", PIN), Map.of()));
        ComponentSpec app = plan.nodes().get("ace").get(0);
        assertEquals(PIN, app.bundle());
        assertNull(app.image());
        assertNull(app.network(), "a process is on no module network");
        assertEquals(Map.of("mesh-store.internal", "10.77.0.11"), app.hosts());
        assertEquals("http://10.77.0.11:5000", plan.registry());
        assertEquals("http://10.77.0.11:5000", plan.registryFor(plan.nodes().get("ace")));
        assertNull(plan.registryFor(plan.nodes().get("novox")), "a node of containers only is not told of it");
    }

    @Test
    void aBundleThatCannotBeResolvedFailsThePlanNamingComponentAndBundle() {
        PlanFailure f = assertThrows(PlanFailure.class, () -> MeshPlanner.plan(List.of(STORE, REGISTRY, WEB),
                List.of(NOVOX, ACE), on("mesh-store", "novox", "mesh-registry", "novox", "web", "ace"),
                new BundlePins(Map.of(), Map.of("it/web:1", "bundle it/web:1: not found in the artifact store"))));
        assertTrue(f.getMessage().contains("node ace: component web.app (web): bundle it/web:1 cannot be resolved: "
                + "bundle it/web:1: not found in the artifact store"), f.getMessage());
    }

    @Test
    void withoutMeshRegistryABundleCannotBeResolved() {
        PlanFailure f = assertThrows(PlanFailure.class, () -> MeshPlanner.plan(List.of(STORE, WEB),
                List.of(NOVOX, ACE), on("mesh-store", "novox", "web", "ace"), BundlePins.NONE));
        assertTrue(f.getMessage().contains("component web.app (web): bundle it/web:1 cannot be resolved: no artifact store: "
                + "module mesh-registry runs on no node"), f.getMessage());
    }

    @Test
    void aProcessAndAContainerClaimingOnePortOnOneNodeFailThePlanNamingBoth() {
        Manifest other = ManifestYaml.parse("other.yaml", """
                module: other
                components:
                  other.web: {image: x:1, ports: [8080]}
                """);
        PlanFailure f = assertThrows(PlanFailure.class, () -> MeshPlanner.plan(List.of(STORE, REGISTRY, WEB, other),
                List.of(NOVOX, ACE), on("mesh-store", "novox", "mesh-registry", "novox", "web", "ace", "other", "ace"),
                new BundlePins(Map.of("it/web:1", PIN), Map.of())));
        assertTrue(f.getMessage().contains("node ace: component web.app: port 8080 is already published by other.web"),
                f.getMessage());
    }
}
