package mesh.plan;

import java.util.List;
import java.util.Map;
import mesh.model.ComponentSpec;
import mesh.model.EdgeTable;

/**
 * MeshPlan is the planner's answer: the roster, every node's components (a node that runs
 * nothing has an empty list: it must still be told, so it removes what it ran), the artifact store
 * (module mesh-registry) the nodes fetch bundles from (null when it runs nowhere) and the route table
 * of every edge node ({@link EdgePlan}).
 */
public record MeshPlan(Map<String, RosterEntry> roster, Map<String, List<ComponentSpec>> nodes, String registry,
                       Map<String, EdgeTable> edges) {

    public MeshPlan {
        edges = edges == null ? Map.of() : Map.copyOf(edges);
    }

    /** A plan with no artifact store and no edges. */
    public MeshPlan(Map<String, RosterEntry> roster, Map<String, List<ComponentSpec>> nodes) {
        this(roster, nodes, null, Map.of());
    }

    /** A plan with no artifact store. */
    public MeshPlan(Map<String, RosterEntry> roster, Map<String, List<ComponentSpec>> nodes, Map<String, EdgeTable> edges) {
        this(roster, nodes, null, edges);
    }

    /** A plan without edges. */
    public MeshPlan(Map<String, RosterEntry> roster, Map<String, List<ComponentSpec>> nodes, String registry) {
        this(roster, nodes, registry, Map.of());
    }

    /**
     * The declaration's artifact store for these components: the mesh's registry when one of them is a
     * process, else null (a node of containers only is not told of it, so moving the registry changes nothing there).
     */
    public String registryFor(List<ComponentSpec> components) {
        return components.stream().anyMatch(ComponentSpec::process) ? registry : null;
    }

    /** RosterEntry is one mesh name: where it resolves and why. */
    public record RosterEntry(String name, String address, String node, String module, String kind) {
    }
}
