package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** RoutePortTest: a route goes to a port its component publishes, or is refused saying what it publishes. */
class RoutePortTest {

    static Stream<Arguments> routes() {
        return Stream.of(
                Arguments.of("to its only published port", new Manifest.Route("r.web", 8080), List.of(8080), null),
                Arguments.of("to one of its published ports", new Manifest.Route("r.web", 443, "zurag.be"), List.of(80, 443), null),
                Arguments.of("to a port it does not publish", new Manifest.Route("r.web", 80), List.of(8080),
                        "module r: route www goes to port 80 of r.web, which does not publish it (its ports: 8080);"
                                + " add 80 to its ports or route to one of them"),
                Arguments.of("to a port it does not publish, under a domain", new Manifest.Route("r.web", 81, "zurag.be"),
                        List.of(80, 443), "module r: route www.zurag.be goes to port 81 of r.web, which does not publish it"
                                + " (its ports: 80, 443); add 81 to its ports or route to one of them"),
                Arguments.of("to a component that publishes none", new Manifest.Route("r.web", 8080), List.of(),
                        "module r: route www goes to port 8080 of r.web, which publishes no port; add ports: [8080] to r.web"));
    }

    @ParameterizedTest(name = "a route {0}")
    @MethodSource("routes")
    void aRouteGoesToAPortItsComponentPublishes(String name, Manifest.Route route, List<Integer> published, String expected) {
        assertEquals(expected, RoutePort.problem("r", "www", route, published));
    }

    @Test
    void aManifestWithoutAModuleNameGetsTheProblemWithoutOne() {
        assertEquals("route www goes to port 80 of web, which does not publish it (its ports: 8080);"
                        + " add 80 to its ports or route to one of them",
                RoutePort.problem(null, "www", new Manifest.Route("web", 80), List.of(8080)));
    }
}
