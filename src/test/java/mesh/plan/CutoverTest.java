package mesh.plan;

import static mesh.model.Specs.component;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.EdgeTable;
import mesh.model.HealthCheck;
import mesh.model.ObservedContainer;
import mesh.model.SpecDigest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CutoverTest is the rule of a start-first replace: which changes cut over and which are replaced stop-first after
 * all (and why), that a cutover counts as a replace, and where this node's edge sends a route a cutover moved.
 */
class CutoverTest {

    static final String ADDRESS = "10.77.0.11";
    static final HealthCheck HTTP = new HealthCheck("/", 8080, null, 10);
    static final ComponentSpec WEB = component("web.server").module("web").image("mesh-test/busybox:1").port(8080)
            .health(HTTP).network("web").startFirst().build();
    static final EdgeTable EDGE = new EdgeTable("route-proxy.server", "internal",
            List.of(new EdgeTable.Route("web.zurag.be", ADDRESS + ":8080", "web"),
                    new EdgeTable.Route("other.zurag.be", "10.77.0.12:8080", "other")));

    static ObservedContainer observed(String id, String name, ComponentSpec c, boolean running, Map<Integer, Integer> ports) {
        ContainerRequest r = ContainerRequest.of(c, ADDRESS);
        return new ObservedContainer(id, name, c.module(), SpecDigest.of(r),
                SpecDigest.canonical(SpecDigest.CURRENT_VERSION, r), 1, running, List.of(ADDRESS), false, ports);
    }

    static Declaration declaration(EdgeTable edge, ComponentSpec... components) {
        return new Declaration("zurag", ADDRESS, 2, List.of(components), edge);
    }

    static Stream<Arguments> stopFirst() {
        ComponentSpec changed = component("web.server").module("web").image("mesh-test/busybox:2").port(8080)
                .health(HTTP).network("web").startFirst().build();
        ComponentSpec notOptedIn = component("web.server").module("web").image("mesh-test/busybox:2").port(8080)
                .health(HTTP).network("web").build();
        ComponentSpec unrouted = component("web.server").module("web").image("mesh-test/busybox:2").port(8080).port(9090)
                .health(HTTP).network("web").startFirst().build();
        ObservedContainer old = observed("old", "web.server", WEB, true, Map.of(8080, 8080));
        return Stream.of(
                Arguments.of("opted in, running, every port a route of this node's edge", changed, old, EDGE, null),
                Arguments.of("not opted in", notOptedIn, old, EDGE, "it did not opt in (replace: start-first)"),
                Arguments.of("the old copy is stopped", changed, observed("old", "web.server", WEB, false, Map.of()), EDGE,
                        "the old copy does not run: nothing to keep serving"),
                Arguments.of("this node runs no edge (another node's edge serves it)", changed, old, null,
                        "port 8080 is no route of this node's edge (a cutover moves the published ports, and only this"
                                + " node's edge follows them)"),
                Arguments.of("a port that no route serves", unrouted, old, EDGE,
                        "port 9090 is no route of this node's edge (a cutover moves the published ports, and only this"
                                + " node's edge follows them)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stopFirst")
    void aChangeCutsOverOnlyWhereTheOldCopyCanServeOnAndThisNodesEdgeFollows(String name, ComponentSpec spec,
                                                                             ObservedContainer old, EdgeTable edge,
                                                                             String why) {
        assertEquals(why, Cutover.stopFirstBecause(spec, old, declaration(edge, spec)), name);
        HostPlan plan = HostDiff.between(declaration(edge, spec), List.of(old));
        assertEquals(1, plan.replace().size(), "a cutover is a replace all the same: " + plan.summary());
        assertEquals(why == null, plan.replace().get(0).cutover(), plan.summary());
    }

    @Test
    void theSummaryCountsACutoverAsAReplaceAndSaysSo() {
        ComponentSpec changed = component("web.server").module("web").image("mesh-test/busybox:2").port(8080)
                .health(HTTP).network("web").startFirst().build();
        HostPlan plan = HostDiff.between(declaration(EDGE, changed),
                List.of(observed("old", "web.server", WEB, true, Map.of(8080, 8080))));
        assertEquals("1 to replace (web.server: image, cut over), 0 unchanged", plan.summary());
        assertEquals(1, plan.changes());
    }

    @Test
    void aPinSendsTheRouteToTheNewCopyAndOtherNodesRoutesAreLeftAlone() {
        Map<String, Cutover.Pin> pins = Map.of(Cutover.key("web", 8080), new Cutover.Pin("new", 41234));
        List<ObservedContainer> both = List.of(observed("old", "web.server", WEB, true, Map.of(8080, 8080)),
                observed("new", "web.server.next", WEB, true, Map.of(8080, 41234)));

        EdgeTable pinned = Cutover.upstreams(EDGE, ADDRESS, both, pins);
        assertEquals(ADDRESS + ":41234", pinned.routes().get(0).upstream());
        assertEquals("10.77.0.12:8080", pinned.routes().get(1).upstream(), "another node's upstream is not this node's");

        assertEquals(ADDRESS + ":8080", Cutover.upstreams(EDGE, ADDRESS, both, Map.of()).routes().get(0).upstream(),
                "without the pin the old copy serves: the new one is not the component's yet");
    }

    @Test
    void afterTheCutoverTheEngineSaysWhereThePortMovedAndThePinIsDropped() {
        Map<String, Cutover.Pin> pins = Map.of(Cutover.key("web", 8080), new Cutover.Pin("new", 41234));
        List<ObservedContainer> during = List.of(observed("old", "web.server", WEB, true, Map.of(8080, 8080)),
                observed("new", "web.server.next", WEB, true, Map.of(8080, 41234)));
        List<ObservedContainer> stale = List.of(observed("old", "web.server", WEB, true, Map.of(8080, 8080)));
        List<ObservedContainer> after = List.of(observed("new", "web.server", WEB, true, Map.of(8080, 41234)));

        assertEquals(pins, Cutover.unsettled(pins, during), "still cutting over");
        assertEquals(pins, Cutover.unsettled(pins, stale), "a look older than the cutover does not drop it");
        assertTrue(Cutover.unsettled(pins, after).isEmpty(), "the renamed copy runs: the engine says it now");
        assertEquals(ADDRESS + ":41234", Cutover.upstreams(EDGE, ADDRESS, after, Map.of()).routes().get(0).upstream());
    }

    @Test
    void aComponentNoCutoverMovedKeepsItsPlannedUpstream() {
        List<ObservedContainer> plain = List.of(observed("c", "web.server", WEB, true, Map.of(8080, 8080)));
        assertEquals(EDGE, Cutover.upstreams(EDGE, ADDRESS, plain, Map.of()));
        assertNull(Cutover.upstreams(null, ADDRESS, plain, Map.of()));
    }
}
