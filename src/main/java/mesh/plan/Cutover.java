package mesh.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.EdgeTable;
import mesh.model.ObservedContainer;

/**
 * Cutover is the pure rule of a start-first replace (docs/cutover.md): whether a change of a component that opted in
 * ({@code replace: start-first}) cuts over or is replaced stop-first after all, and where this node's edge sends a
 * route whose port a cutover moved. The agent's steps ({@code mesh.host.CutoverRun}):
 *
 * <pre>
 *   create &lt;name&gt;.next beside the old (its ports on free host ports) ─► start ─► health (the manifest's deadline)
 *     ├─ never healthy: remove the new copy; the old one serves on, the apply fails naming the check
 *     └─ healthy: the edge's upstreams at the new ports (Caddy's admin API) ─► drain the old {@link #DRAIN}
 *                 ─► stop and remove the old ─► rename the new copy to &lt;name&gt;
 * </pre>
 *
 * A cutover is a replace to everything else: the plan counts it as one (the push budget, the blast radius), the
 * preview says {@code cutover} where it says {@code replace}, and a rollback's change cuts over the same way.
 */
public final class Cutover {

    /** DRAIN is how long the old copy keeps answering what it holds after the edge switched, before it is stopped. */
    public static final Duration DRAIN = Duration.ofSeconds(5);
    /** NEXT ends the new copy's container name while the old one still has the component's name. */
    public static final String NEXT = ".next";

    private Cutover() {
    }

    /**
     * Why a change of {@code spec} (running now as {@code current}) is replaced stop-first, or null when it cuts over.
     * It cuts over only when it opted in, the old copy is a running container, and every port it publishes is a route
     * of this node's own edge: the new copy publishes on other host ports, which only this node's edge is told of.
     */
    public static String stopFirstBecause(ComponentSpec spec, ObservedContainer current, Declaration d) {
        if (!spec.startFirst()) {
            return "it did not opt in (replace: start-first)";
        }
        if (spec.process() || current.process()) {
            return "a process cannot run beside itself";
        }
        if (!current.running()) {
            return "the old copy does not run: nothing to keep serving";
        }
        List<String> unrouted = new ArrayList<>();
        for (int port : spec.ports()) {
            String upstream = d.address() + ":" + port;
            boolean routed = d.edge() != null && d.edge().routes().stream()
                    .anyMatch(r -> r.module().equals(spec.module()) && r.upstream().equals(upstream));
            if (!routed) {
                unrouted.add(Integer.toString(port));
            }
        }
        return unrouted.isEmpty() ? null : "port " + String.join(", ", unrouted) + " is no route of this node's edge"
                + " (a cutover moves the published ports, and only this node's edge follows them)";
    }

    /** The key of a moved port in {@link #upstreams}'s pins. */
    public static String key(String module, int port) {
        return module + ":" + port;
    }

    /** Pin is where a running cutover sent a route's port: the new copy's container and the host port it publishes on. */
    public record Pin(String container, int hostPort) {
    }

    /**
     * The table with each route to a port of this node ({@code address}) pointed at where that port is published
     * now: the pin a running cutover set ({@link #key} to its pin), else the host port of the running container of
     * the route's module that publishes the port elsewhere than its own number (one a cutover moved), else as planned.
     */
    public static EdgeTable upstreams(EdgeTable table, String address, List<ObservedContainer> observed,
                                      Map<String, Pin> pins) {
        if (table == null) {
            return null;
        }
        List<EdgeTable.Route> routes = new ArrayList<>();
        for (EdgeTable.Route r : table.routes()) {
            Integer port = portOn(r.upstream(), address);
            Pin pin = port == null ? null : pins.get(key(r.module(), port));
            Integer moved = port == null ? null : pin != null ? Integer.valueOf(pin.hostPort()) : movedTo(r.module(), port, observed);
            routes.add(moved == null ? r : new EdgeTable.Route(r.name(), address + ":" + moved, r.module()));
        }
        return new EdgeTable(table.component(), table.tls(), routes);
    }

    /**
     * The pins still needed: a pin is dropped once the engine shows its container running under the component's
     * own name (the cutover ended and what the engine shows is newer than it), from then on {@link #upstreams}
     * reads the moved port from the engine.
     */
    public static Map<String, Pin> unsettled(Map<String, Pin> pins, List<ObservedContainer> observed) {
        Map<String, Pin> left = new TreeMap<>();
        pins.forEach((key, pin) -> {
            boolean settled = observed.stream().anyMatch(o -> o.id().equals(pin.container()) && o.running()
                    && !o.name().endsWith(NEXT));
            if (!settled) {
                left.put(key, pin);
            }
        });
        return left;
    }

    private static Integer movedTo(String module, int port, List<ObservedContainer> observed) {
        return observed.stream()
                .filter(o -> o.running() && module.equals(o.module()) && !o.name().endsWith(NEXT))
                .map(o -> o.hostPorts().get(port))
                .filter(h -> h != null && h != port)
                .findFirst().orElse(null);
    }

    private static Integer portOn(String upstream, String address) {
        if (upstream == null || !upstream.startsWith(address + ":")) {
            return null;
        }
        try {
            return Integer.parseInt(upstream.substring(address.length() + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
