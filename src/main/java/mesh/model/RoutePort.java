package mesh.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * RoutePort is the rule that a route goes to a port its component publishes. The edge proxies a
 * route to that port on the mesh address of the node its module runs on, and only a published port
 * is reachable there, so a route to any other port is a name nothing answers. The rule answers null
 * when the route is good and otherwise says what is wrong, naming the module, the route's host
 * name, the component, the port and what the component does publish.
 */
public final class RoutePort {

    private RoutePort() {
    }

    /**
     * The problem of route {@code name} of {@code module}, going to {@code route}'s component, which
     * publishes {@code published}; null when it publishes the route's port. A manifest without a
     * module name (reported on its own) gets the problem without one.
     */
    public static String problem(String module, String name, Manifest.Route route, List<Integer> published) {
        if (published.contains(route.port())) {
            return null;
        }
        String head = (module == null ? "" : "module " + module + ": ") + "route " + hostName(name, route) + " goes to port " + route.port()
                + " of " + route.component();
        if (published.isEmpty()) {
            return head + ", which publishes no port; add ports: [" + route.port() + "] to " + route.component();
        }
        return head + ", which does not publish it (its ports: "
                + published.stream().map(String::valueOf).collect(Collectors.joining(", "))
                + "); add " + route.port() + " to its ports or route to one of them";
    }

    /** The route's host name as far as the manifest knows it: {@code R.D} with a domain, else {@code R}. */
    static String hostName(String name, Manifest.Route route) {
        return route.domain() == null ? name : name + "." + route.domain();
    }
}
