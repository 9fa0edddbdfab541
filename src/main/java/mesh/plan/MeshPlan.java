package mesh.plan;

import java.util.List;
import java.util.Map;
import mesh.model.ComponentSpec;

/**
 * MeshPlan is the planner's answer: the roster and every node's components (a node that runs
 * nothing has an empty list: it must still be told, so it removes what it ran), and the artifact store
 * (module mesh-registry) the nodes fetch bundles from, null when it runs nowhere.
 */
public record MeshPlan(Map<String, RosterEntry> roster, Map<String, List<ComponentSpec>> nodes, String registry) {

    /** A plan with no artifact store (no module mesh-registry runs). */
    public MeshPlan(Map<String, RosterEntry> roster, Map<String, List<ComponentSpec>> nodes) {
        this(roster, nodes, null);
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
