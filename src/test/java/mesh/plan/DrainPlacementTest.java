package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import mesh.plan.DrainPlacement.Module;
import mesh.plan.DrainPlacement.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DrainPlacementTest {

    static final long MB = 1_000_000L;

    /** A module: name, its data in MB, the ports it publishes. */
    static Module m(String name, long mb, Integer... ports) {
        return new Module(name, mb * MB, Set.of(ports));
    }

    static Target t(String name, long freeMb, Integer... ports) {
        return new Target(name, false, freeMb < 0 ? -1 : freeMb * MB, Set.of(ports));
    }

    static Target cordoned(String name, long freeMb) {
        return new Target(name, true, freeMb * MB, Set.of());
    }

    static final Target N2 = t("n2", 1000);

    /** The table: modules on n2, the nodes, the --to nodes, then "module>target" placed in order and "module: why" left. */
    static Stream<Arguments> drains() {
        return Stream.of(
            Arguments.of("spread by room: the fullest first, each onto the node with the most room left",
                List.of(m("a", 100), m("b", 300), m("c", 50)), List.of(N2, t("n3", 500), t("n4", 400)), List.of(),
                "b>n3 a>n4 c>n4", ""),
            Arguments.of("only the --to nodes, even with a roomier one beside",
                List.of(m("a", 10)), List.of(N2, t("n3", 100), t("n4", 50), t("n5", 9000)), List.of("n3", "n4"),
                "a>n3", ""),
            Arguments.of("no --to: not the drained node and not a cordoned one",
                List.of(m("a", 10)), List.of(N2, cordoned("n3", 9000), t("n4", 50)), List.of(),
                "a>n4", ""),
            Arguments.of("a port published on the roomier node sends it to the other",
                List.of(m("web", 10, 8080)), List.of(N2, t("n3", 900, 8080), t("n4", 50)), List.of(),
                "web>n4", ""),
            Arguments.of("two modules publishing one port go to two nodes",
                List.of(m("a", 10, 80), m("b", 5, 80)), List.of(N2, t("n3", 900), t("n4", 50)), List.of(),
                "a>n3 b>n4", ""),
            Arguments.of("no room anywhere: named with each node's reason, the others still placed",
                List.of(m("big", 600), m("small", 10)), List.of(N2, t("n3", 500), t("n4", 100, 443)), List.of(),
                "small>n3", "big: no target fits: n3: room for 500 MB, its data is 600 MB; n4: room for 100 MB, its data is 600 MB"),
            Arguments.of("the room this plan used counts",
                List.of(m("a", 300), m("b", 300)), List.of(N2, t("n3", 500)), List.of(),
                "a>n3", "b: no target fits: n3: room for 200 MB, its data is 300 MB"),
            Arguments.of("a port taken on every target",
                List.of(m("dns", 0, 53)), List.of(N2, t("n3", 10, 53), t("n4", 10, 53)), List.of(),
                "", "dns: no target fits: n3: port 53 already published there; n4: port 53 already published there"),
            Arguments.of("free space not known (an older agent): room is not checked",
                List.of(m("a", 300)), List.of(N2, t("n3", -1)), List.of(),
                "a>n3", ""),
            Arguments.of("every other node cordoned",
                List.of(m("a", 1)), List.of(N2, cordoned("n3", 9000)), List.of(),
                "", "a: no node to move it to (every other node is cordoned)"),
            Arguments.of("a cordoned --to is named, never used",
                List.of(m("a", 1)), List.of(N2, cordoned("n3", 9000)), List.of("n3"),
                "", "a: no target fits: n3: cordoned"),
            Arguments.of("the mesh's own modules last: the registry moves, controller, store and edge are named and left",
                List.of(m("mesh-registry", 50), m("mesh-controller", 1), m("mesh-store", 5), m("route-proxy", 0, 443), m("app", 1)),
                List.of(N2, t("n3", 500)), List.of(),
                "app>n3 mesh-registry>n3",
                "mesh-store: " + DrainPlacement.STAYS.get("mesh-store") + "|mesh-controller: " + DrainPlacement.STAYS.get("mesh-controller")
                        + "|route-proxy: " + DrainPlacement.STAYS.get("route-proxy")),
            Arguments.of("an empty node: an empty plan",
                List.of(), List.of(N2, t("n3", 500)), List.of(), "", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("drains")
    void placesEachModuleOrNamesWhyNot(String scenario, List<Module> modules, List<Target> targets, List<String> to,
                                       String placed, String left) {
        DrainPlacement.Result r = DrainPlacement.place("n2", modules, targets, to);
        assertEquals(placed, r.placed().stream().map(p -> p.module() + ">" + p.target()).collect(Collectors.joining(" ")), scenario);
        assertEquals(left.isEmpty() ? List.of() : Arrays.asList(left.split("\\|")),
                r.left().stream().map(l -> l.module() + ": " + l.why()).toList(), scenario);
        assertEquals(modules.size(), r.placed().size() + r.left().size(), "every module placed or named: " + scenario);
    }
}
