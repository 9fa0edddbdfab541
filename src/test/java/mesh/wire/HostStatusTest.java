package mesh.wire;

import mesh.model.ComponentState;
import static mesh.model.Specs.component;
import static mesh.model.Specs.declaration;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import org.junit.jupiter.api.Test;

class HostStatusTest {

    @Test
    void aFencedModulesComponentsAreFencedWhateverTheEngineShows() {
        Declaration d = declaration("n1", 3, component("gitea.web").module("gitea").build(),
                component("searxng.server").module("searxng").build());
        List<ObservedContainer> observed = List.of(
                new ObservedContainer("c1", "gitea.web", "gitea", "x", null, 3, false, List.of()));
        HostStatus status = HostStatus.of("n1", d, 3, true, Instant.EPOCH, observed, Map.of(), Map.of(), Map.of(), 0, Instant.EPOCH, Set.of("gitea"));
        assertEquals(List.of(ComponentState.FENCED, ComponentState.MISSING),
                status.components().stream().map(HostStatus.Component::state).toList());
        assertEquals("c1", status.components().get(0).containerId(), "the stopped container is still shown");
        HostStatus unfenced = HostStatus.of("n1", d, 3, true, Instant.EPOCH, observed, Map.of(), Map.of(), Map.of(), 0, Instant.EPOCH, Set.of());
        assertEquals(ComponentState.OUTDATED, unfenced.components().get(0).state());
    }
}
