package mesh.plan;

import java.util.List;
import java.util.Map;
import mesh.model.ComponentSpec;
import mesh.model.EdgeTable;

/**
 * MeshPlan is the planner's answer: the roster, every node's components (a node that runs
 * nothing has an empty list: it must still be told, so it removes what it ran) and the route table
 * of every edge node ({@link EdgePlan}).
 */
public record MeshPlan(Map<String, RosterEntry> roster, Map<String, List<ComponentSpec>> nodes,
                       Map<String, EdgeTable> edges) {

    public MeshPlan {
        edges = edges == null ? Map.of() : Map.copyOf(edges);
    }

    /** A plan without edges. */
    public MeshPlan(Map<String, RosterEntry> roster, Map<String, List<ComponentSpec>> nodes) {
        this(roster, nodes, Map.of());
    }

    /** RosterEntry is one mesh name: where it resolves and why. */
    public record RosterEntry(String name, String address, String node, String module, String kind) {
    }
}
