package mesh.host;

import mesh.plan.HostPlan;
import mesh.wire.PlanView;

/**
 * HostPlanView shows a host plan as the API and {@code -o json} do ({@link PlanView}: names and reasons, not specs): the
 * agent's answer to a preview, and {@code mesh host apply}'s. Here, at the host's edge, so the wire knows no plan.
 */
public final class HostPlanView {

    private HostPlanView() {
    }

    public static PlanView of(HostPlan plan) {
        return new PlanView(plan.summary(),
                plan.create().stream().map(c -> c.name()).toList(),
                plan.replace().stream().map(r -> new PlanView.Replaced(r.spec().name(), r.spec().module(), r.fields(), r.cutover())).toList(),
                plan.start().stream().map(s -> s.spec().name()).toList(),
                plan.remove().stream().map(o -> o.name()).toList(),
                plan.keep().size());
    }
}
