package mesh.plan;

import java.util.List;
import java.util.Map;
import mesh.model.ComponentSpec;

/**
 * MeshPlan is the planner's answer: the roster and every node's components (a node that runs
 * nothing has an empty list: it must still be told, so it removes what it ran).
 */
public record MeshPlan(Map<String, RosterEntry> roster, Map<String, List<ComponentSpec>> nodes) {

    /** RosterEntry is one mesh name: where it resolves and why. */
    public record RosterEntry(String name, String address, String node, String module, String kind) {
    }
}
