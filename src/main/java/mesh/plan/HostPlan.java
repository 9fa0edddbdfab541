package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import mesh.model.ComponentSpec;
import mesh.model.ObservedContainer;

/**
 * HostPlan is what one pass on one node will do, grouped by action (Nomad's reconcile results).
 * An empty plan means no engine write at all (docs/design.md, invariant 9).
 */
public record HostPlan(List<ComponentSpec> create,
                       List<Replace> replace,
                       List<Start> start,
                       List<ObservedContainer> remove,
                       List<Keep> keep) {

    /**
     * Replace: the container exists with another spec; {@code fields} say what changed. {@code cutover}: it is
     * replaced start-first ({@link Cutover}), the new copy beside the old until the edge switched; a replace still.
     */
    public record Replace(ComponentSpec spec, ObservedContainer current, List<String> fields, boolean cutover) {

        /** A replace stop-first. */
        public Replace(ComponentSpec spec, ObservedContainer current, List<String> fields) {
            this(spec, current, fields, false);
        }
    }

    /** Keep: the container runs with the declared spec; nothing to do. */
    public record Keep(ComponentSpec spec, ObservedContainer current) {
    }

    /** Start: the container has the right spec but is not running (stopped behind our back, or a crash). */
    public record Start(ComponentSpec spec, ObservedContainer current) {
    }

    public HostPlan {
        create = List.copyOf(create);
        replace = List.copyOf(replace);
        start = List.copyOf(start);
        remove = List.copyOf(remove);
        keep = List.copyOf(keep);
    }

    public boolean isEmpty() {
        return create.isEmpty() && replace.isEmpty() && start.isEmpty() && remove.isEmpty();
    }

    public int changes() {
        return create.size() + replace.size() + start.size() + remove.size();
    }

    /** One line for logs and for the push's answer, e.g. "1 to create, 2 to replace (a: hosts), 17 unchanged". */
    public String summary() {
        if (isEmpty()) {
            return "nothing to do, " + keep.size() + " unchanged";
        }
        List<String> parts = new ArrayList<>();
        if (!create.isEmpty()) {
            parts.add(create.size() + " to create");
        }
        if (!replace.isEmpty()) {
            parts.add(replace.size() + " to replace (" + String.join(", ", replace.stream()
                    .map(r -> r.spec().name() + ": " + String.join(", ", r.fields()) + (r.cutover() ? ", cut over" : "")).toList()) + ")");
        }
        if (!start.isEmpty()) {
            parts.add(start.size() + " to start");
        }
        if (!remove.isEmpty()) {
            parts.add(remove.size() + " to remove");
        }
        parts.add(keep.size() + " unchanged");
        return String.join(", ", parts);
    }
}
