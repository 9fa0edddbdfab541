package mesh.host.take;

import static mesh.model.Specs.component;
import static mesh.model.Specs.declaration;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.plan.HostDiff;
import mesh.plan.HostPlan;
import org.junit.jupiter.api.Test;

class FenceFilterTest {

    final ComponentSpec web = component("gitea-web").module("gitea").build();
    final ComponentSpec db = component("gitea-db").module("gitea").build();
    final ComponentSpec other = component("searxng").module("searxng").build();
    final Declaration d = declaration("n1", 4, web, db, other);

    @Test
    void aFencedModuleIsNeitherCreatedNorStartedNorRemoved() {
        ObservedContainer stoppedWeb = new ObservedContainer("c1", "gitea-web", "gitea", "x", null, 3, false, List.of());
        HostPlan plan = HostDiff.between(FenceFilter.declaration(d, Set.of("gitea")),
                FenceFilter.observed(List.of(stoppedWeb), Set.of("gitea")));
        assertEquals(List.of("searxng"), plan.create().stream().map(ComponentSpec::name).toList());
        assertTrue(plan.start().isEmpty() && plan.replace().isEmpty() && plan.remove().isEmpty(), plan.summary());
    }

    @Test
    void withoutFencesTheDeclarationIsTheSame() {
        assertSame(d, FenceFilter.declaration(d, Set.of()));
        assertSame(d, FenceFilter.declaration(d, Set.of("minio")));
        assertEquals(d.edge(), FenceFilter.declaration(d, Set.of("gitea")).edge());
        assertEquals(4, FenceFilter.declaration(d, Set.of("gitea")).generation());
    }
}
