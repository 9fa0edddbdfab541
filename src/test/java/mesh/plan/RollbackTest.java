package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.model.Specs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RollbackTest: what {@code mesh rollback} plans from a kept push's input on today's mesh, on plain
 * values: the placements (a removed node dropped, a module's data never moved), the catalogue (exactly
 * the push's), the notes the preview leads with, "data is not rolled back", the pins and the refusals.
 */
class RollbackTest {

    static final Manifest WEB = manifest("web", "image: mesh-test/busybox:1");
    static final Manifest WEB_NEWER = manifest("web", "image: mesh-test/busybox:2");
    static final Manifest DB = manifest("db", "image: mesh-test/postgres:15\n    volumes: {data: /var/lib/postgresql}");
    static final Manifest CACHE = manifest("cache", "image: mesh-test/busybox:1");
    static final Node N1 = new Node("n1", "10.77.0.11", "https://10.77.0.11:7701", null);
    static final Node N2 = new Node("n2", "10.77.0.12", "https://10.77.0.12:7701", null);
    static final List<Node> TODAY = List.of(N1, N2);

    static Manifest manifest(String module, String component) {
        return ManifestYaml.parse(module + ".yaml", "module: " + module + "\ncomponents:\n  " + module + ".server:\n    "
                + component + "\n");
    }

    static PushInput input(long push, List<Manifest> catalogue, Placement... placements) {
        return new PushInput(push, catalogue.stream().map(m -> new PushInput.Module(m, m.module() + ".yaml")).toList(),
                List.of(placements), List.of(new PushInput.PlannedNode("n1", null)), Map.of(), null);
    }

    static Placement at(String module, String assigned, String taken) {
        return new Placement(module, assigned, taken);
    }

    /** Module web's placement then and today, the nodes today; its placement after the rollback (null: none), and the note it gets. */
    static Stream<Arguments> placements() {
        return Stream.of(
                Arguments.of("the same since", at("web", "n1", "n1"), at("web", "n1", "n1"), TODAY, at("web", "n1", "n1"), null),
                Arguments.of("unassigned since", at("web", "n1", "n1"), null, TODAY, at("web", "n1", "n1"), null),
                Arguments.of("assigned elsewhere since, not yet taken", at("web", "n1", "n1"), at("web", "n2", "n1"), TODAY,
                        at("web", "n1", "n1"), null),
                Arguments.of("taken on another node since: stays with its data", at("web", "n1", "n1"), at("web", "n2", "n2"),
                        TODAY, at("web", "n1", "n2"), "module web stays on node n2, where it is taken and its data is (at push 7"
                                + " it ran on n1); 'mesh take n1 web' moves it with its data"),
                Arguments.of("its node removed since", at("web", "n3", "n3"), null, TODAY, null,
                        "node n3 was removed after push 7: module web, assigned there then, is not placed there"),
                Arguments.of("its node removed, taken elsewhere today", at("web", "n3", "n3"), at("web", "n2", "n2"), TODAY,
                        at("web", null, "n2"), "node n3 was removed after push 7"),
                Arguments.of("placed nowhere then, running today: it stops", null, at("web", "n1", "n1"), TODAY, null, null),
                Arguments.of("assigned, not yet taken then", at("web", "n2", "n1"), at("web", "n1", "n1"), TODAY,
                        at("web", "n2", "n1"), null));
    }

    @ParameterizedTest(name = "placement: {0}")
    @MethodSource("placements")
    void eachPlacementIsThePushsOnTodaysNodesAndDataNeverMoves(String name, Placement then, Placement today, List<Node> nodes,
                                                                Placement expected, String note) {
        PushInput in = then == null ? input(7, List.of(WEB)) : input(7, List.of(WEB), then);
        Rollback.Restored r = Rollback.restore(in, nodes, today == null ? List.of() : List.of(today), Set.of("web"));
        assertEquals(expected == null ? List.of() : List.of(expected), r.placements(), name);
        List<String> said = r.notes().subList(1, r.notes().size());
        if (note == null) {
            assertEquals(List.of(), said, name);
        } else {
            assertTrue(said.stream().anyMatch(n -> n.startsWith(note)), name + ": " + said);
        }
        assertTrue(r.notes().get(0).startsWith("rolling back to push 7: the catalogue and placements as they were then")
                && r.notes().get(0).contains("data is not rolled back"), r.notes().get(0));
    }

    @Test
    void theCatalogueIsExactlyThePushsAModuleRemovedSinceComesBackOneAddedSinceLeaves() {
        PushInput in = input(3, List.of(WEB, DB), at("web", "n1", "n1"), at("db", "n2", "n2"));
        Rollback.Restored r = Rollback.restore(in, TODAY, List.of(at("web", "n1", "n1"), at("cache", "n2", "n2")),
                Set.of("web", "cache"));
        assertEquals(List.of(WEB, DB), r.manifests());
        assertEquals(List.of("web.yaml", "db.yaml"), r.catalogue().stream().map(PushInput.Module::source).toList());
        assertEquals(List.of(at("web", "n1", "n1"), at("db", "n2", "n2")), r.placements(), "cache is placed nowhere: it stops");
        assertEquals(List.of("module db comes back to the catalogue (it was removed after push 3)",
                "module cache leaves the catalogue (it was added after push 3); it stops where it runs, its volumes stay"),
                r.notes().subList(1, r.notes().size()));
    }

    @Test
    void plannedFromTheRestoredInputTheMeshIsThePushsOnTodaysNodes() {
        PushInput in = input(5, List.of(WEB, DB, CACHE), at("web", "n1", "n1"), at("db", "n2", "n2"), at("cache", "n2", "n2"));
        MeshPlan then = MeshPlanner.plan(in.manifests(), TODAY, in.placements());
        Rollback.Restored r = Rollback.restore(in, TODAY, List.of(at("web", "n2", "n2")), Set.of("web"));
        MeshPlan again = MeshPlanner.plan(r.manifests(), TODAY, r.placements());
        // web is taken on n2 today: it stays there with its data; everything else is as push 5 planned it
        assertEquals(then.nodes().get("n2").stream().map(ComponentSpec::name).toList(),
                again.nodes().get("n2").stream().filter(c -> !c.module().equals("web")).map(ComponentSpec::name).toList());
        assertEquals(List.of("web.server"), again.nodes().get("n2").stream().filter(c -> c.module().equals("web"))
                .map(ComponentSpec::name).toList());
        assertEquals(List.of(), again.nodes().getOrDefault("n1", List.of()), "web does not start on n1 without its data");
    }

    /** What a node runs now, what the rollback plans for it; how many "data is not rolled back" notes, and one of them. */
    static Stream<Arguments> dataNotes() {
        ComponentSpec db15 = Specs.component("db.server").module("db").image("pg:15").volume("data", "/d").build();
        ComponentSpec db16 = Specs.component("db.server").module("db").image("pg:16").volume("data", "/d").build();
        ComponentSpec db16env = Specs.component("db.server").module("db").image("pg:16").volume("data", "/d").env("A", "1").build();
        ComponentSpec web1 = Specs.component("web.server").module("web").image("web:1").build();
        ComponentSpec web2 = Specs.component("web.server").module("web").image("web:2").build();
        return Stream.of(
                Arguments.of("an older image on the same volumes", List.of(db16), List.of(db15), 1,
                        "data is not rolled back: db.server on n1 goes from image pg:16 to image pg:15 on its volumes as they are (data)"),
                Arguments.of("the same image, other env", List.of(db16), List.of(db16env), 0, null),
                Arguments.of("an image change without volumes", List.of(web2), List.of(web1), 0, null),
                Arguments.of("a component the node does not run yet", List.of(), List.of(db15), 0, null),
                Arguments.of("both", List.of(db16, web2), List.of(db15, web1), 1, "data is not rolled back: db.server"));
    }

    @ParameterizedTest(name = "data: {0}")
    @MethodSource("dataNotes")
    void everyComponentWithVolumesWhoseImageChangesIsNamed(String name, List<ComponentSpec> now, List<ComponentSpec> planned,
                                                           int count, String note) {
        Map<String, Declaration> acked = Map.of("n1", new Declaration("n1", "10.77.0.11", 4, now));
        MeshPlan plan = new MeshPlan(Map.of(), Map.of("n1", planned), null, Map.of());
        List<String> notes = Rollback.dataNotes(acked, plan);
        assertEquals(count, notes.size(), name + ": " + notes);
        if (note != null) {
            assertTrue(notes.get(0).startsWith(note), notes.get(0));
        }
    }

    @Test
    void aNodeThatAcknowledgedNothingGetsNoDataNote() {
        ComponentSpec db = Specs.component("db.server").module("db").image("pg:15").volume("data", "/d").build();
        Map<String, Declaration> acked = new java.util.HashMap<>();
        acked.put("n1", null);
        assertEquals(List.of(), Rollback.dataNotes(acked, new MeshPlan(Map.of(), Map.of("n1", List.of(db)), null, Map.of())));
    }

    @Test
    void thePushsOwnPinsWinOverTodaysAndHealItsFailures() {
        PushInput in = new PushInput(9, List.of(), List.of(), List.of(), Map.of("app:1", "app@sha256:aa"), null);
        BundlePins today = new BundlePins(Map.of("app:1", "app@sha256:bb", "tool:2", "tool@sha256:cc"),
                Map.of("app:1", "the registry did not answer"));
        BundlePins pins = Rollback.pins(in, today);
        assertEquals(Map.of("app:1", "app@sha256:aa", "tool:2", "tool@sha256:cc"), pins.pinned());
        assertEquals(Map.of(), pins.failures());
    }

    /** The audit's verb of the id (null: no row); the refusal's words. */
    static Stream<Arguments> notKept() {
        return Stream.of(
                Arguments.of(null, "push 12 is not in the audit trail; 'mesh rollback --list' shows the pushes that can be"
                        + " rolled back to; nothing was changed"),
                Arguments.of("assign", "audit record 12 is a 'assign', not a push; 'mesh rollback --list'"),
                Arguments.of("push", "push 12's input is no longer kept (the controller keeps the inputs of the last 50 pushes"),
                Arguments.of("rollback", "push 12's input is no longer kept"));
    }

    @ParameterizedTest(name = "not kept: {0}")
    @MethodSource("notKept")
    void aPushWithNoKeptInputIsRefusedSayingWhy(String verb, String words) {
        String said = Rollback.notKept(12, verb);
        assertTrue(said.startsWith(words), said);
        assertTrue(said.endsWith("nothing was changed"), said);
    }
}
