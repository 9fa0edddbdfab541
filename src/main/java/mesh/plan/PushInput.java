package mesh.plan;

import java.util.List;
import java.util.Map;
import mesh.model.Manifest;
import mesh.model.Placement;

/**
 * PushInput is what one push planned from, as the controller keeps it beside the push's audit row
 * (V6__push_inputs.sql): the catalogue (each manifest with the file it came from), the placements,
 * the nodes it planned (their names and public domains, for the record: a rollback plans with
 * today's nodes and addresses) and the bundles pinned to digests. {@link Rollback} plans from it again.
 *
 * @param push       the audit trail's id of the push ({@code mesh audit}, "push N" in {@code mesh host history})
 * @param rollbackOf when this push was itself a rollback, the push it rolled back to; else null
 */
public record PushInput(long push, List<Module> catalogue, List<Placement> placements, List<PlannedNode> nodes,
                        Map<String, String> pins, Long rollbackOf) {

    public PushInput {
        catalogue = List.copyOf(catalogue);
        placements = List.copyOf(placements);
        nodes = List.copyOf(nodes);
        pins = pins == null ? Map.of() : Map.copyOf(pins);
    }

    /** Module is one manifest of the catalogue and the file it was added from. */
    public record Module(Manifest manifest, String source) {
    }

    /** PlannedNode is a node as the push planned it: its name and public domain (null for none). */
    public record PlannedNode(String name, String publicDomain) {
    }

    /** The manifests alone, as the planner takes them. */
    public List<Manifest> manifests() {
        return catalogue.stream().map(Module::manifest).toList();
    }
}
