package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.EdgeTable;
import mesh.model.Specs;
import mesh.plan.MeshModules.Running;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MeshModulesTest: which change of which module where is refused, with what reason and override, on
 * plain values (docs/design.md, invariant 11, "the mesh cannot take itself down").
 */
class MeshModulesTest {

    static final String SEAT = "10.77.0.11";
    /** The controller's store on the seat, as mesh install writes it. */
    static final String ON_SEAT = "jdbc:postgresql://" + SEAT + ":5432/mesh";
    static final String ELSEWHERE = "jdbc:postgresql://db.example:5432/mesh";
    static final Set<String> NONE = Set.of();

    static Running on(String module, String node, int routes) {
        return new Running(module, node, node.equals("n1") ? SEAT : "10.77.0.12", routes);
    }

    /** unassign NODE MODULE: where it runs, the store URL, the modules named by the override; refused or not, and the words. */
    static Stream<Arguments> unassigns() {
        return Stream.of(
                Arguments.of("the store where it runs", "n1", on("mesh-store", "n1", 0), ON_SEAT, NONE, "the mesh's store"),
                Arguments.of("the registry where it runs", "n1", on("mesh-registry", "n1", 0), ON_SEAT, NONE, "artifact store"),
                Arguments.of("the controller where it runs", "n1", on("mesh-controller", "n1", 0), ON_SEAT, NONE, "controller"),
                Arguments.of("the controller, even named", "n1", on("mesh-controller", "n1", 0), ON_SEAT,
                        Set.of("mesh-controller"), "no flag lets the controller remove itself"),
                Arguments.of("the store the controller runs on, even named", "n1", on("mesh-store", "n1", 0), ON_SEAT,
                        Set.of("mesh-store"), "no flag removes the store the controller runs on"),
                Arguments.of("the store, another named", "n1", on("mesh-store", "n1", 0), ELSEWHERE, Set.of("mesh-registry"),
                        "--force-remove-mesh-module mesh-store"),
                Arguments.of("an edge serving routes", "n2", on("route-proxy", "n2", 3), ON_SEAT, NONE, "serving 3 routes"),
                Arguments.of("the seat's standby where it runs", "n2", on("mesh-standby", "n2", 0), ON_SEAT, NONE, "the seat's standby"),
                Arguments.of("the seat's standby named", "n2", on("mesh-standby", "n2", 0), ON_SEAT, Set.of("mesh-standby"), null),
                Arguments.of("the store named, the controller elsewhere", "n1", on("mesh-store", "n1", 0), ELSEWHERE,
                        Set.of("mesh-store"), null),
                Arguments.of("the registry named", "n1", on("mesh-registry", "n1", 0), ON_SEAT, Set.of("mesh-registry"), null),
                Arguments.of("an edge named", "n2", on("route-proxy", "n2", 3), ON_SEAT, Set.of("route-proxy"), null),
                Arguments.of("an edge serving nothing", "n2", on("route-proxy", "n2", 0), ON_SEAT, NONE, null),
                Arguments.of("the store from a node it does not run on", "n2", on("mesh-store", "n1", 0), ON_SEAT, NONE, null),
                Arguments.of("the store that runs nowhere", "n1", null, ON_SEAT, NONE, null),
                Arguments.of("any other module", "n1", on("gitea", "n1", 0), ON_SEAT, NONE, null));
    }

    @ParameterizedTest(name = "unassign: {0}")
    @MethodSource("unassigns")
    void unassigningAMeshModuleWhereItRunsIsRefusedNamingItAndWhatToDo(String name, String node, Running r, String storeUrl,
                                                                       Set<String> forced, String says) {
        Optional<String> refusal = MeshModules.unassign(node, r, storeUrl, forced);
        assertEquals(says != null, refusal.isPresent(), refusal.toString());
        refusal.ifPresent(m -> {
            assertTrue(m.contains(says), m);
            assertTrue(m.startsWith("unassigning " + r.module() + " from " + node + " would stop "), m);
            assertTrue(m.contains("'mesh take NODE " + r.module() + "'"), m);
        });
    }

    static Stream<Arguments> catalogueRemoves() {
        return Stream.of(
                Arguments.of(on("mesh-store", "n1", 0), true),
                Arguments.of(on("mesh-registry", "n1", 0), true),
                Arguments.of(on("mesh-controller", "n1", 0), true),
                Arguments.of(on("route-proxy", "n2", 1), true),
                Arguments.of(on("route-proxy", "n2", 0), false),
                Arguments.of(on("gitea", "n1", 0), false),
                Arguments.of(null, false));
    }

    @ParameterizedTest(name = "catalogue remove: {0} refused {1}")
    @MethodSource("catalogueRemoves")
    void removingARunningMeshModuleFromTheCatalogueIsRefused(Running r, boolean refused) {
        Optional<String> refusal = MeshModules.catalogueRemove(r);
        assertEquals(refused, refusal.isPresent(), refusal.toString());
        refusal.ifPresent(m -> assertTrue(m.startsWith("removing " + r.module() + " from the catalogue would stop it on "), m));
    }

    static Stream<Arguments> nodeRemoves() {
        return Stream.of(
                Arguments.of(List.of(on("mesh-store", "n1", 0), on("mesh-controller", "n1", 0), on("gitea", "n1", 0)), "n1",
                        "removing node n1 would stop the mesh's own modules mesh-store (the mesh's store"),
                Arguments.of(List.of(on("route-proxy", "n2", 2)), "n2", "route-proxy (node n2's edge (module route-proxy), serving 2 routes)"),
                Arguments.of(List.of(on("route-proxy", "n2", 0), on("gitea", "n2", 0)), "n2", null),
                Arguments.of(List.of(on("mesh-store", "n1", 0)), "n2", null));
    }

    @ParameterizedTest(name = "node remove {1}: {2}")
    @MethodSource("nodeRemoves")
    void removingTheNodeOfAMeshModuleIsRefusedNamingEach(List<Running> there, String node, String says) {
        Optional<String> refusal = MeshModules.nodeRemove(node, there);
        assertEquals(says != null, refusal.isPresent(), refusal.toString());
        refusal.ifPresent(m -> assertTrue(m.contains(says), m));
    }

    static final ComponentSpec STORE = Specs.component("mesh-store.postgres").module("mesh-store").build();
    static final ComponentSpec REGISTRY = Specs.component("mesh-registry.registry").module("mesh-registry").build();
    static final ComponentSpec EDGE = Specs.component("route-proxy.server").module("route-proxy").build();
    static final ComponentSpec WEB = Specs.component("web.server").module("web").build();
    static final EdgeTable ROUTES = new EdgeTable("route-proxy.server", EdgeTable.TLS_INTERNAL,
            List.of(new EdgeTable.Route("www.zurag.be", "10.77.0.11:80", "web")));
    static final Map<String, String> ADDRESSES = Map.of("n1", SEAT, "n2", "10.77.0.12");

    static Declaration acked(String node, ComponentSpec... cs) {
        return new Declaration(node, ADDRESSES.get(node), 0, List.of(cs));
    }

    /** A push: what each node acknowledged, the plan, the override; how many refusals and what the first says. */
    static Stream<Arguments> pushes() {
        MeshPlan dropsStore = new MeshPlan(Map.of(), Map.of("n1", List.of(REGISTRY, WEB), "n2", List.of()));
        MeshPlan storeMoved = new MeshPlan(Map.of(), Map.of("n1", List.of(REGISTRY), "n2", List.of(STORE)));
        MeshPlan dropsBoth = new MeshPlan(Map.of(), Map.of("n1", List.of(WEB), "n2", List.of()));
        MeshPlan edgeGoneRoutesStay = new MeshPlan(Map.of(), Map.of("n1", List.of(STORE, REGISTRY), "n2", List.of(WEB)),
                Map.of("n2", ROUTES));
        MeshPlan edgeGoneWithItsRoutes = new MeshPlan(Map.of(), Map.of("n1", List.of(STORE, REGISTRY), "n2", List.of()));
        Map<String, Declaration> seatRuns = Map.of("n1", acked("n1", STORE, REGISTRY, WEB), "n2", acked("n2"));
        Map<String, Declaration> edgeRuns = Map.of("n1", acked("n1", STORE, REGISTRY), "n2", acked("n2", EDGE, WEB));
        java.util.HashMap<String, Declaration> neverAcked = new java.util.HashMap<>();
        neverAcked.put("n1", null);
        return Stream.of(
                Arguments.of("drops the store", seatRuns, dropsStore, ON_SEAT, NONE, 1,
                        "this push, which drops mesh-store from n1, would stop the mesh's store"),
                Arguments.of("drops the store and the registry", seatRuns, dropsBoth, ELSEWHERE, NONE, 2, "mesh-registry"),
                Arguments.of("drops them, one named", seatRuns, dropsBoth, ELSEWHERE, Set.of("mesh-store"), 1, "mesh-registry"),
                Arguments.of("drops the controller's store, named", seatRuns, dropsStore, ON_SEAT, Set.of("mesh-store"), 1,
                        "no flag removes the store"),
                Arguments.of("drops the store, named, controller elsewhere", seatRuns, dropsStore, ELSEWHERE, Set.of("mesh-store"),
                        0, null),
                Arguments.of("moves the store (a take)", seatRuns, storeMoved, ON_SEAT, NONE, 0, null),
                Arguments.of("drops an edge whose node keeps its routes", edgeRuns, edgeGoneRoutesStay, ON_SEAT, NONE, 1,
                        "node n2's edge (module route-proxy), serving 1 route"),
                Arguments.of("drops an edge with its routes", edgeRuns, edgeGoneWithItsRoutes, ON_SEAT, NONE, 0, null),
                Arguments.of("a node that acknowledged nothing", neverAcked, dropsBoth, ON_SEAT, NONE, 0, null));
    }

    @ParameterizedTest(name = "push: {0}")
    @MethodSource("pushes")
    void aPushThatDropsARunningMeshModuleIsRefusedNamingEach(String name, Map<String, Declaration> acked, MeshPlan plan,
                                                            String storeUrl, Set<String> forced, int refusals, String first) {
        List<String> refused = MeshModules.push(acked, plan, ADDRESSES, storeUrl, forced);
        assertEquals(refusals, refused.size(), refused.toString());
        if (first != null) {
            assertTrue(refused.stream().anyMatch(m -> m.contains(first)), refused.toString());
        }
    }

    @Test
    void theStoresHostIsReadFromItsJdbcUrl() {
        assertEquals("10.77.0.11", MeshModules.storeHost("jdbc:postgresql://10.77.0.11:5432/mesh"));
        assertEquals("db", MeshModules.storeHost("jdbc:postgresql://db/mesh?ssl=true"));
        assertEquals("fd00::1", MeshModules.storeHost("jdbc:postgresql://[fd00::1]:5432/mesh"));
        assertEquals(null, MeshModules.storeHost("postgres://db/mesh"));
        assertEquals(null, MeshModules.storeHost(null));
    }

    @Test
    void theMeshsModulesAreNamed() {
        for (String m : List.of("mesh-store", "mesh-registry", "mesh-controller", "route-proxy")) {
            assertTrue(MeshModules.isMeshModule(m), m);
        }
        assertEquals(false, MeshModules.isMeshModule("gitea"));
    }
}
