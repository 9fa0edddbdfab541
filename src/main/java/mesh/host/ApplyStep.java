package mesh.host;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.plan.HostDiff;
import mesh.plan.HostPlan;
import mesh.host.take.FenceFilter;

/**
 * ApplyStep carries out the pass's plan ({@link ApplyRun}: in dependency order, a failing component failing
 * only itself and what waits on it) and looks again: the declaration is applied only when every action
 * succeeded and a fresh diff is empty. An empty plan writes nothing and is applied as it is.
 */
final class ApplyStep implements PassStep {

    private final BiFunction<Declaration, HostPlan, ApplyReport> apply;
    private final Function<String, List<ObservedContainer>> observe;

    /** {@code apply}: an ApplyRun of a plan; {@code observe}: a fresh look at the node's components (kept for the status). */
    ApplyStep(BiFunction<Declaration, HostPlan, ApplyReport> apply, Function<String, List<ObservedContainer>> observe) {
        this.apply = apply;
        this.observe = observe;
    }

    @Override
    public void run(Context pass) {
        if (pass.plan.isEmpty()) {
            pass.done = true;
            return;
        }
        Declaration allowed = pass.view.declaration();
        ApplyReport report = apply.apply(allowed, pass.plan);
        pass.failing = report.failures();
        pass.done = report.ok() && HostDiff.between(allowed,
                FenceFilter.observed(observe.apply(pass.declaration.node()), pass.view.untouched())).isEmpty();
    }
}
