package mesh.wire;

import java.util.List;
import mesh.plan.HostPlan;

/**
 * PlanView is a host plan as the API and {@code -o json} show it: names and reasons, not specs.
 * The agent answers a preview with it and the controller passes it on in its push report.
 */
public record PlanView(String summary, List<String> create, List<Replaced> replace, List<String> start,
                       List<String> remove, int unchanged) {

    /** Replaced names a component and the fields whose change forces its replacement. */
    public record Replaced(String name, String module, List<String> fields) {
    }

    public static PlanView of(HostPlan plan) {
        return new PlanView(plan.summary(),
                plan.create().stream().map(c -> c.name()).toList(),
                plan.replace().stream().map(r -> new Replaced(r.spec().name(), r.spec().module(), r.fields())).toList(),
                plan.start().stream().map(s -> s.spec().name()).toList(),
                plan.remove().stream().map(o -> o.name()).toList(),
                plan.keep().size());
    }
}
