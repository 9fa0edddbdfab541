package mesh.host;

import mesh.model.ComponentState;
import static mesh.model.Specs.component;
import static mesh.model.Specs.declaration;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.wire.HostStatus;
import org.junit.jupiter.api.Test;

/** StatusReportTest: the agent's status as {@link StatusReport} makes it from what the agent holds. */
class StatusReportTest {

    @Test
    void aFencedModulesComponentsAreFencedWhateverTheEngineShows() {
        Declaration d = declaration("n1", 3, component("gitea.web").module("gitea").build(),
                component("searxng.server").module("searxng").build());
        List<ObservedContainer> observed = List.of(
                new ObservedContainer("c1", "gitea.web", "gitea", "x", null, 3, false, List.of()));
        HostStatus status = StatusReport.of("n1").declaration(d).applied(3).converged(true).lastPass(Instant.EPOCH)
                .observed(observed).judged(0).fenced(Set.of("gitea")).at(Instant.EPOCH);
        assertEquals(List.of(ComponentState.FENCED, ComponentState.MISSING),
                status.components().stream().map(HostStatus.Component::state).toList());
        assertEquals("c1", status.components().get(0).containerId(), "the stopped container is still shown");
        HostStatus unfenced = StatusReport.of("n1").declaration(d).applied(3).converged(true).lastPass(Instant.EPOCH)
                .observed(observed).judged(0).fenced(Set.of()).at(Instant.EPOCH);
        assertEquals(ComponentState.OUTDATED, unfenced.components().get(0).state());
    }

    @Test
    void eachNamedPartLandsInItsField() {
        Declaration d = declaration("n1", 5, component("gitea.web").module("gitea").build());
        HostStatus status = StatusReport.of("n1").declaration(d).applied(4).converged(false).lastPass(Instant.EPOCH)
                .failures(java.util.Map.of("gitea.web", "image missing", HostStatus.ENGINE, "engine down")).judged(5)
                .at(Instant.EPOCH);
        assertEquals(List.of("n1", 5L, 4L, false, "1970-01-01T00:00:00Z", "engine down", 5L),
                List.of(status.node(), status.generation(), status.appliedGeneration(), status.converged(), status.lastPass(),
                        status.engineError(), status.judgedGeneration()));
        HostStatus.Component c = status.components().get(0);
        assertEquals("image missing", c.error());
        assertEquals(null, c.reason(), "a failure says why; no second reason beside it");
        HostStatus none = StatusReport.of("n2").applied(0).judged(9).at(Instant.EPOCH);
        assertEquals(List.of(0L, 0L, List.of()), List.of(none.generation(), none.judgedGeneration(), none.components()),
                "no declaration: nothing held, nothing judged");
        assertEquals(null, none.lastPass());
    }
}
