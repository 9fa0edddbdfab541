package mesh.plan;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.model.ComponentSpec;
import mesh.model.EdgeTable;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Manifests;
import mesh.model.Node;

/**
 * EdgePlan decides, from the roster, which nodes are edges and what each edge serves. Pure.
 *
 * <ul>
 *   <li>Which edge serves a route ({@link #routes}): route R of a module is the name {@code R.D}, D
 *       being the route's {@code domain} if the manifest gives one, else the public domain of the
 *       node the module is taken on (no domain either way: the route is not served). The node whose
 *       public domain is D serves it with its edge, and {@code R.D} resolves to that node's address,
 *       wherever the module runs. R {@code *} gives {@code *.D}, every name under D no other route has.</li>
 *   <li>A node with a public domain that serves at least one routed name runs the edge: the
 *       component of module {@value #MODULE} (the catalogue's manifest of that name, else the
 *       built-in one, {@code mesh/edge/route-proxy.yaml}). A node without routes runs no edge.</li>
 *   <li>Its route table maps each routed name {@code R.D} to the mesh address of the node the
 *       route's module runs on and the route's port: routes are data carried beside the components,
 *       not part of any spec digest, so a route change reloads the edge and replaces nothing.</li>
 *   <li>Its TLS policy is the edge component's {@code MESH_EDGE_TLS} (default {@code acme}).</li>
 * </ul>
 */
public final class EdgePlan {

    /** MODULE is the edge's module name, in the catalogue and on the engine. */
    public static final String MODULE = "route-proxy";
    /** TLS_SETTING is the edge component's variable that chooses its TLS policy. */
    public static final String TLS_SETTING = "MESH_EDGE_TLS";
    /** ROUTE is the roster kind of a routed name. */
    public static final String ROUTE = "route";

    private static final Manifest BUILT_IN = ManifestYaml.parse("route-proxy.yaml (built in)", builtInText());

    private EdgePlan() {
    }

    /** The edge's manifest: the catalogue's module {@value #MODULE} if there is one, else the built-in one. */
    public static Manifest manifest(Map<String, Manifest> catalogue) {
        return catalogue.getOrDefault(MODULE, BUILT_IN);
    }

    /**
     * Each edge node's route table; adds the edge component to each edge node's components unless
     * the module already runs there (assigned by hand).
     */
    public static Map<String, EdgeTable> plan(Manifest edge, Map<String, Manifest> modules, Map<String, Node> nodes,
                                              Map<String, String> takenOn, Map<String, MeshPlan.RosterEntry> roster,
                                              Map<String, List<ComponentSpec>> perNode) {
        Map<String, List<EdgeTable.Route>> routes = new TreeMap<>();
        for (MeshPlan.RosterEntry e : roster.values()) {
            if (!ROUTE.equals(e.kind())) {
                continue;
            }
            String domain = nodes.get(e.node()).publicDomain();
            String route = e.name().substring(0, e.name().length() - domain.length() - 1);
            Manifest.Route r = modules.get(e.module()).routes().get(route);
            String upstream = nodes.get(takenOn.get(e.module())).address() + ":" + r.port();
            routes.computeIfAbsent(e.node(), n -> new ArrayList<>()).add(new EdgeTable.Route(e.name(), upstream, e.module()));
        }
        String component = edge.components().keySet().iterator().next();
        String tls = edge.components().get(component).env().getOrDefault(TLS_SETTING, EdgeTable.TLS_ACME);
        Map<String, EdgeTable> edges = new TreeMap<>();
        routes.forEach((node, table) -> {
            List<ComponentSpec> components = perNode.get(node);
            if (components.stream().noneMatch(c -> c.name().equals(component))) {
                components.add(Manifests.spec(edge, component, Map.of()));
            }
            edges.put(node, new EdgeTable(component, tls, table));
        });
        return edges;
    }

    /**
     * Adds each taken module's routes to the roster as {@code R.D}, resolving to the edge node's
     * address (see the class comment); a route whose domain no node has, or several nodes have while
     * the module runs on none of them, or a name two modules claim, is a problem naming it.
     */
    static void routes(Map<String, Manifest> modules, Map<String, Node> nodes, Map<String, String> takenOn,
                       Map<String, MeshPlan.RosterEntry> roster, List<String> problems) {
        takenOn.forEach((module, nodeName) -> {
            Node runsOn = nodes.get(nodeName);
            modules.get(module).routes().forEach((route, r) -> {
                String domain = r.domain() != null ? r.domain() : runsOn.publicDomain();
                if (domain == null) {
                    return;
                }
                List<Node> edges = domain.equals(runsOn.publicDomain()) ? List.of(runsOn)
                        : nodes.values().stream().filter(n -> domain.equals(n.publicDomain())).toList();
                String name = route + "." + domain;
                if (edges.size() != 1) {
                    problems.add("route " + name + " of module " + module + " (on node " + nodeName + "): " + (edges.isEmpty()
                            ? domain + " is no node's public domain; 'mesh node public-domain NODE " + domain
                            + "' makes NODE's edge serve it"
                            : domain + " is the public domain of nodes " + String.join(", ", edges.stream().map(Node::name).toList())
                            + "; one node serves a domain's routes"));
                    return;
                }
                MeshPlan.RosterEntry claimed = roster.get(name);
                if (claimed != null) {
                    problems.add("route " + name + " is claimed by module " + claimed.module() + " and by module " + module);
                } else {
                    Node edge = edges.get(0);
                    roster.put(name, new MeshPlan.RosterEntry(name, edge.address(), edge.name(), module, ROUTE));
                }
            });
        });
    }

    /** The roster's entry for a bound name: the name itself, else the wildcard route {@code *.D} of its domain. */
    static MeshPlan.RosterEntry resolve(Map<String, MeshPlan.RosterEntry> roster, String name) {
        MeshPlan.RosterEntry exact = roster.get(name);
        int dot = name.indexOf('.');
        return exact != null || dot < 0 ? exact : roster.get(Manifest.Route.WILDCARD + name.substring(dot));
    }

    /** The domain D if route R gives {@code name} ({@code R.D}, or any {@code X.D} for R {@code *}), else null. */
    static String domainOf(String route, String name) {
        if (Manifest.Route.WILDCARD.equals(route)) {
            int dot = name.indexOf('.');
            return dot > 0 && name.indexOf('.', dot + 1) > 0 ? name.substring(dot + 1) : null;
        }
        return name.startsWith(route + ".") ? name.substring(route.length() + 1) : null;
    }

    private static String builtInText() {
        try (InputStream in = EdgePlan.class.getResourceAsStream("/mesh/edge/route-proxy.yaml")) {
            if (in == null) {
                throw new IllegalStateException("the built-in route-proxy manifest is missing from this build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
