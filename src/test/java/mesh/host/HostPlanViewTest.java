package mesh.host;

import static mesh.model.Specs.component;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.model.ComponentSpec;
import mesh.model.ObservedContainer;
import mesh.plan.HostPlan;
import mesh.wire.PlanView;
import org.junit.jupiter.api.Test;

/** HostPlanViewTest: a host plan as the API shows it, names and reasons. */
class HostPlanViewTest {

    @Test
    void aPlanIsShownByNamesWithEachReplacementsFields() {
        ComponentSpec web = component("web.server").module("web").build();
        ComponentSpec cache = component("web.cache").module("web").build();
        ComponentSpec db = component("web.db").module("web").build();
        ObservedContainer old = new ObservedContainer("c1", "web.old", "web", "x", null, 3, true, List.of());
        ObservedContainer running = new ObservedContainer("c2", "web.server", "web", "y", null, 3, true, List.of());
        HostPlan plan = new HostPlan(List.of(cache), List.of(new HostPlan.Replace(web, running, List.of("image"))),
                List.of(new HostPlan.Start(db, running)), List.of(old), List.of(new HostPlan.Keep(web, running)));
        assertEquals(new PlanView(plan.summary(), List.of("web.cache"), List.of(new PlanView.Replaced("web.server", "web",
                        List.of("image"))), List.of("web.db"), List.of("web.old"), 1),
                HostPlanView.of(plan));
    }
}
