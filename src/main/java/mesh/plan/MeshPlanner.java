package mesh.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationCheck;
import mesh.model.EdgeTable;
import mesh.model.Manifest;
import mesh.model.Manifests;
import mesh.model.Node;
import mesh.model.Placement;

/**
 * MeshPlanner turns the catalogue, the nodes and the placements into the roster and each node's
 * components. Pure and total: it either plans every node or fails with every problem, each naming
 * the node, the component and the name (docs/design.md, invariant 3: the old planner swallowed one).
 *
 * <ul>
 *   <li>{@code <module>.internal} resolves to the address of the node where the module is taken;</li>
 *   <li>a route R of a module gives {@code R.D}, D being the route's {@code domain} or else the public
 *       domain of the node the module is taken on; it resolves to the address of the node whose public
 *       domain D is, whose edge proxies it to the module wherever it runs ({@link EdgePlan#routes});</li>
 *   <li>each component gets the roster entries for exactly the names it binds (docs/design.md, invariant 2);</li>
 *   <li>each node with a public domain that serves routes runs the edge, with its route table ({@link EdgePlan}).</li>
 * </ul>
 */
public final class MeshPlanner {

    private MeshPlanner() {
    }

    /** The module whose node is the mesh's artifact store (a registry on port {@value #REGISTRY_PORT}). */
    public static final String REGISTRY_MODULE = "mesh-registry";
    public static final int REGISTRY_PORT = 5000;

    public static MeshPlan plan(List<Manifest> catalogue, List<Node> nodes, List<Placement> placements) {
        return plan(catalogue, nodes, placements, BundlePins.NONE);
    }

    /**
     * The artifact store's URL, {@code http://<address of the node where mesh-registry is taken>:5000},
     * or null when it runs nowhere (or on a node that is not known).
     */
    public static String registryUrl(List<Node> nodes, List<Placement> placements) {
        return placements.stream().filter(p -> REGISTRY_MODULE.equals(p.module()) && p.taken() != null)
                .map(p -> nodes.stream().filter(n -> n.name().equals(p.taken())).findFirst().orElse(null))
                .filter(java.util.Objects::nonNull)
                .map(n -> "http://" + (n.address().contains(":") ? "[" + n.address() + "]" : n.address()) + ":" + REGISTRY_PORT)
                .findFirst().orElse(null);
    }

    /** The plan, with each process's bundle pinned to a digest by {@code pins} (see {@link BundlePins}). */
    public static MeshPlan plan(List<Manifest> catalogue, List<Node> nodes, List<Placement> placements, BundlePins pins) {
        return plan(catalogue, nodes, placements, pins, SecretValues.NONE);
    }

    /**
     * The plan, each process's bundle pinned by {@code pins} and each secret a component uses filled in
     * from {@code secrets} ({@link SecretValues#resolve}): an unknown one fails the plan, naming it.
     */
    public static MeshPlan plan(List<Manifest> catalogue, List<Node> nodes, List<Placement> placements, BundlePins pins,
                                SecretValues secrets) {
        Map<String, Manifest> modules = new TreeMap<>();
        catalogue.forEach(m -> modules.put(m.module(), m));
        Map<String, Node> byName = new TreeMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        List<String> problems = new ArrayList<>();

        Map<String, String> takenOn = new TreeMap<>();
        for (Placement p : placements) {
            if (p.taken() == null) {
                continue;
            }
            if (!modules.containsKey(p.module())) {
                problems.add("module " + p.module() + " runs on node " + p.taken() + " but is not in the catalogue");
            } else if (!byName.containsKey(p.taken())) {
                problems.add("module " + p.module() + " runs on node " + p.taken() + ", which is not a node");
            } else {
                takenOn.put(p.module(), p.taken());
            }
        }

        Map<String, MeshPlan.RosterEntry> roster = roster(modules, byName, takenOn, problems);
        String registry = registryUrl(nodes, placements);

        Map<String, List<ComponentSpec>> perNode = new TreeMap<>();
        byName.keySet().forEach(n -> perNode.put(n, new ArrayList<>()));
        takenOn.forEach((module, node) -> {
            Manifest m = modules.get(module);
            for (Map.Entry<String, Manifest.Component> c : m.components().entrySet()) {
                Map<String, String> hosts = new LinkedHashMap<>();
                for (String bind : c.getValue().binds()) {
                    MeshPlan.RosterEntry entry = EdgePlan.resolve(roster, bind);
                    if (entry == null) {
                        problems.add("node " + node + ": component " + c.getKey() + " (" + module + ") binds '" + bind
                                + "', which no node serves" + whatWouldServe(bind, modules, byName, takenOn));
                    } else {
                        hosts.put(bind, entry.address());
                    }
                }
                ComponentSpec spec = secrets.resolve(Manifests.spec(m, c.getKey(), hosts), node, problems);
                if (spec.process()) {
                    spec = pinned(spec, node, pins, registry, problems);
                }
                perNode.get(node).add(spec);
            }
        });
        Map<String, EdgeTable> edges = EdgePlan.plan(EdgePlan.manifest(modules), modules, byName, takenOn, roster, perNode);
        MeshPlan plan = new MeshPlan(roster, perNode, registry, edges);
        perNode.forEach((node, components) -> DeclarationCheck.problems(
                        new Declaration(node, byName.get(node).address(), 1, components, plan.registryFor(components),
                                edges.get(node)))
                .forEach(p -> problems.add("node " + node + ": " + p)));

        if (!problems.isEmpty()) {
            throw new PlanFailure(problems);
        }
        return plan;
    }

    /** The process's spec with its bundle pinned ({@code NAME@sha256:HEX}); a problem naming it when it cannot be. */
    private static ComponentSpec pinned(ComponentSpec spec, String node, BundlePins pins, String registry, List<String> problems) {
        String written = spec.bundle();
        String pin;
        try {
            pin = mesh.bundle.BundleRef.parse(written).pinned() ? written : pins.pinned().get(written);
        } catch (IllegalArgumentException e) {
            pin = null;
        }
        if (pin == null || registry == null) {
            String why = registry == null ? "no artifact store: module " + REGISTRY_MODULE + " runs on no node (assign it)"
                    : pins.failures().getOrDefault(written, "it was not looked up in the artifact store");
            problems.add("node " + node + ": component " + spec.name() + " (" + spec.module() + "): bundle " + written
                    + " cannot be resolved: " + why);
            return spec;
        }
        return spec.withBundle(pin);
    }

    private static Map<String, MeshPlan.RosterEntry> roster(Map<String, Manifest> modules, Map<String, Node> nodes,
                                                            Map<String, String> takenOn, List<String> problems) {
        Map<String, MeshPlan.RosterEntry> roster = new TreeMap<>();
        takenOn.forEach((module, nodeName) -> {
            Node node = nodes.get(nodeName);
            String internal = modules.get(module).internalName();
            roster.put(internal, new MeshPlan.RosterEntry(internal, node.address(), nodeName, module, "internal"));
        });
        EdgePlan.routes(modules, nodes, takenOn, roster, problems);
        return roster;
    }

    /** Says what would serve a name nobody serves now, so the operator knows what to do. */
    private static String whatWouldServe(String name, Map<String, Manifest> modules, Map<String, Node> nodes,
                                         Map<String, String> takenOn) {
        for (Manifest m : modules.values()) {
            if (m.internalName().equals(name)) {
                return "; module " + m.module() + " would serve it once it runs on a node (assign it)";
            }
            for (Map.Entry<String, Manifest.Route> r : m.routes().entrySet()) {
                String domain = EdgePlan.domainOf(r.getKey(), name);
                if (domain != null && (r.getValue().domain() == null || r.getValue().domain().equals(domain))) {
                    String where = takenOn.get(m.module());
                    String runs = where == null ? " (the module runs nowhere)"
                            : nodes.get(where).publicDomain() == null ? " (it runs on " + where
                            + ", which has no public domain; the route's 'domain: " + domain + "' serves it through the edge of"
                            + " the node with that public domain)"
                            : " (it runs on " + where + ", whose public domain is " + nodes.get(where).publicDomain() + ")";
                    return "; route " + r.getKey() + " of module " + m.module() + " would serve it on a node with public domain "
                            + domain + runs;
                }
            }
        }
        return "; no module in the catalogue offers it";
    }
}
