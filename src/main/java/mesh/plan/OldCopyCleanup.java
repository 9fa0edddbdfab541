package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OldCopyCleanup is what {@code mesh take --forget-old MODULE} does with each copy of the module's data
 * its takes left on their sources, in the order they were left: a copy on the node the module runs on
 * now is no old copy (it runs on that data) and is passed over; a copy on a node that is no longer a
 * node cannot be removed, and stops the cleanup there, naming it; every other copy's volumes are
 * deleted by that node's agent (each with its kind: container or process volume).
 */
public final class OldCopyCleanup {

    private OldCopyCleanup() {
    }

    /** One old copy: the node it is on, the take's epoch that left it, its volumes. */
    public record Copy(String node, long epoch, List<String> volumes) {
    }

    /** A volume to delete and its kind ({@code container} unless the manifest says otherwise). */
    public record Volume(String name, String kind) {
    }

    /** One step of the cleanup. */
    public sealed interface Step {
        Copy copy();
    }

    /** The module runs on this copy's node: it is no old copy. */
    public record Skip(Copy copy) implements Step {
    }

    /** The copy's node is gone: nothing can be removed there, and the cleanup stops. */
    public record Refuse(Copy copy, String why) implements Step {
    }

    /** Delete these volumes on the copy's node, then forget the copy. */
    public record Delete(Copy copy, List<Volume> volumes) implements Step {
    }

    /** The steps, in the copies' order; a {@link Refuse} is the last one. */
    public static List<Step> steps(String module, List<Copy> copies, Set<String> nodes, String runsOn,
                                   Map<String, String> kinds) {
        List<Step> steps = new ArrayList<>();
        for (Copy copy : copies) {
            if (copy.node().equals(runsOn)) {
                steps.add(new Skip(copy));
            } else if (!nodes.contains(copy.node())) {
                steps.add(new Refuse(copy, "the old copy of module " + module + " left at epoch " + copy.epoch()
                        + " is on node " + copy.node() + ", which is no longer a node; nothing was removed there"));
                break;
            } else {
                steps.add(new Delete(copy, copy.volumes().stream()
                        .map(v -> new Volume(v, kinds.getOrDefault(v, "container"))).toList()));
            }
        }
        return steps;
    }
}
