package mesh.plan;

import mesh.model.TakeStep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Node;
import mesh.model.Placement;
import org.junit.jupiter.api.Test;

/** TakeStartTest: the declaration that starts a module on the target before the switch moves nothing else. */
class TakeStartTest {

    static final Manifest WEB = ManifestYaml.parse("web.yaml", """
            module: web
            components:
              web.server:
                image: mesh-test/busybox:1
                binds: [web.internal]
                volumes: {data: /data, files: /files}
                ports: [8080]
            routes:
              www: {component: web.server, port: 8080}
            """);
    static final Manifest APP = ManifestYaml.parse("app.yaml", """
            module: app
            components:
              app.server:
                image: mesh-test/busybox:1
                binds: [web.internal]
            """);
    static final Manifest OTHER = ManifestYaml.parse("other.yaml", """
            module: other
            components:
              other.server:
                image: mesh-test/busybox:1
            """);
    static final Node N1 = new Node("n1", "10.77.0.11", "http://10.77.0.11:7701", null);
    static final Node N2 = new Node("n2", "10.77.0.12", "http://10.77.0.12:7701", "n2.test");
    static final List<Manifest> CATALOGUE = List.of(WEB, APP, OTHER);
    static final List<Placement> TODAY = List.of(new Placement("web", "n1", "n1"), new Placement("app", "n2", "n2"),
            new Placement("other", "n2", "n2"));

    @Test
    void theTargetGetsTheModuleAsIfTakenThereAndKeepsEverythingElseAsToday() {
        MeshPlan now = MeshPlanner.plan(CATALOGUE, List.of(N1, N2), TODAY);
        MeshPlan asTaken = MeshPlanner.plan(CATALOGUE, List.of(N1, N2), TakeStart.asTaken(TODAY, "web", "n2"));
        Declaration d = TakeStart.declaration(now, asTaken, "web", N2, 4);
        assertEquals(5, d.generation());
        Map<String, ComponentSpec> byName = new java.util.TreeMap<>();
        d.components().forEach(c -> byName.put(c.name(), c));
        assertEquals(List.of("app.server", "other.server", "web.server"), List.copyOf(byName.keySet()));
        // the module's own component resolves its name where it starts; the binder keeps today's address
        assertEquals(Map.of("web.internal", "10.77.0.12"), byName.get("web.server").hosts());
        assertEquals(Map.of("web.internal", "10.77.0.11"), byName.get("app.server").hosts());
        assertEquals(now.nodes().get("n2").stream().filter(c -> c.name().equals("app.server")).findFirst().orElseThrow(),
                byName.get("app.server"));
        // no route moves before the switch: the edge is today's (none on n2)
        assertEquals(now.edges().get("n2"), d.edge());
        assertTrue(asTaken.roster().containsKey("www.n2.test"));
        assertTrue(asTaken.nodes().get("n2").stream().anyMatch(c -> c.name().equals("route-proxy.server")),
                "the edge the route brings comes with the push after the switch");
        // after the switch the module's component is the same (kept) and only the binder differs (replaced)
        List<ComponentSpec> after = asTaken.nodes().get("n2");
        assertEquals(byName.get("web.server"), after.stream().filter(c -> c.name().equals("web.server")).findFirst().orElseThrow());
        assertNotEquals(byName.get("app.server"), after.stream().filter(c -> c.name().equals("app.server")).findFirst().orElseThrow());
        assertEquals(byName.get("other.server"), after.stream().filter(c -> c.name().equals("other.server")).findFirst().orElseThrow());
    }

    /**
     * Two takes onto one node, the second starting while the first stands at its start: the second's start declaration
     * keeps the first's component exactly as the first's own start declaration sent it (kept, not removed or replaced).
     * Without whileStarting the first's component was missing from it, and the agent removed it (seen in a drain).
     */
    @Test
    void aSecondTakeOntoTheSameNodeKeepsTheFirstsComponentThatIsStartingThere() {
        List<Placement> today = List.of(new Placement("web", "n1", "n1"), new Placement("other", "n1", "n1"),
                new Placement("app", "n2", "n2"));
        MeshPlan webNow = MeshPlanner.plan(CATALOGUE, List.of(N1, N2), today);
        MeshPlan webTaken = MeshPlanner.plan(CATALOGUE, List.of(N1, N2), TakeStart.asTaken(today, "web", "n2"));
        ComponentSpec webStarted = TakeStart.declaration(webNow, webTaken, "web", N2, 1).components().stream()
                .filter(c -> c.name().equals("web.server")).findFirst().orElseThrow();

        List<Take> running = List.of(Take.start("web", "n1", "n2", 5, false).at(TakeStep.START),
                Take.start("other", "n1", "n2", 6, false).at(TakeStep.START));
        List<Placement> nodesRun = TakeStart.whileStarting(today, running, "other");
        assertEquals(List.of(new Placement("other", "n1", "n1"), new Placement("app", "n2", "n2"), new Placement("web", "n2", "n2")),
                nodesRun, "web counts as taken on n2; other's own take is not applied here");
        MeshPlan now = MeshPlanner.plan(CATALOGUE, List.of(N1, N2), nodesRun);
        MeshPlan asTaken = MeshPlanner.plan(CATALOGUE, List.of(N1, N2), TakeStart.asTaken(nodesRun, "other", "n2"));
        Declaration d = TakeStart.declaration(now, asTaken, "other", N2, 2);
        assertEquals(webStarted, d.components().stream().filter(c -> c.name().equals("web.server")).findFirst().orElseThrow(),
                "the first take's starting component is kept as its start sent it");
        assertTrue(d.components().stream().anyMatch(c -> c.name().equals("other.server")));

        MeshPlan without = MeshPlanner.plan(CATALOGUE, List.of(N1, N2), today);
        MeshPlan withoutTaken = MeshPlanner.plan(CATALOGUE, List.of(N1, N2), TakeStart.asTaken(today, "other", "n2"));
        assertTrue(TakeStart.declaration(without, withoutTaken, "other", N2, 2).components().stream()
                .noneMatch(c -> c.name().equals("web.server")), "what the placements alone gave: web.server removed");
    }

    @Test
    void onlyTakesAtTheirStartOrSwitchCountAsTakenWhileStarting() {
        for (TakeStep step : TakeStep.values()) {
            List<Placement> p = TakeStart.whileStarting(TODAY, List.of(Take.start("web", "n1", "n2", 5, false).at(step)), "other");
            boolean counted = p.contains(new Placement("web", "n2", "n2"));
            assertEquals(step == TakeStep.START || step == TakeStep.SWITCH, counted, step.word());
        }
    }

    @Test
    void theModuleIsAssignedAndTakenOnTheTargetAndNothingElseMoves() {
        List<Placement> next = TakeStart.asTaken(TODAY, "web", "n2");
        assertEquals(3, next.size());
        assertTrue(next.contains(new Placement("web", "n2", "n2")));
        assertTrue(next.containsAll(TODAY.subList(1, 3)));
    }

    @Test
    void volumesAreTheModulesWithTheirKind() {
        assertEquals(List.of("data", "files"), TakeStart.volumes(WEB).stream().map(Take.Volume::name).toList());
        assertEquals(List.of("container", "container"), TakeStart.volumes(WEB).stream().map(Take.Volume::kind).toList());
    }

    @Test
    void backReversesTheNewestDoneTakeThatBroughtTheModuleWhereItRuns() {
        Take old = Take.start("web", "n3", "n1", 2, false).at(TakeStep.DONE);
        Take last = Take.start("web", "n1", "n2", 5, false).at(TakeStep.DONE);
        Take failed = Take.start("web", "n2", "n3", 6, false).at(TakeStep.ROLLED_BACK);
        assertEquals(Optional.of(last), TakeStart.toReverse(List.of(old, last, failed), new Placement("web", "n2", "n2")));
        assertEquals(Optional.empty(), TakeStart.toReverse(List.of(old, failed), new Placement("web", "n2", "n2")));
        assertEquals(Optional.empty(), TakeStart.toReverse(List.of(Take.start("web", null, "n2", 1, false).at(TakeStep.DONE)),
                new Placement("web", "n2", "n2")));
    }
}
