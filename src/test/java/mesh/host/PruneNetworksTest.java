package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PruneNetworksTest: a network nothing of whose module remains is removed; a refused removal is said once, not every pass. */
class PruneNetworksTest {

    @Test
    void removesALeftOverNetworkAndSaysARefusalOnce() {
        AgentState state = PassStepsFixture.state();
        state.lastObserved = List.of(PassStepsFixture.running(PassStepsFixture.WEB));
        Map<String, String> networks = Map.of("mesh-web", "web", "mesh-gone", "gone", "mesh-stuck", "stuck");
        List<String> removed = new ArrayList<>();
        PassStepsFixture.Said info = new PassStepsFixture.Said();
        PassStepsFixture.Said warn = new PassStepsFixture.Said();
        PruneNetworks step = new PruneNetworks(node -> networks, n -> {
            if (n.equals("mesh-stuck")) {
                throw new IllegalStateException("a foreign container is attached");
            }
            removed.add(n);
        }, state, info, warn);
        PassStep.Context pass = PassStepsFixture.observed(PassStepsFixture.declaration(1, PassStepsFixture.WEB),
                state.lastObserved);
        step.run(pass);
        step.run(pass);
        assertEquals(List.of("mesh-gone", "mesh-gone"), removed.stream().sorted().toList(), "web's network stays");
        assertEquals(List.of("kept network mesh-stuck: a foreign container is attached"), warn, "said once over two passes");
        assertEquals(2, info.size());
    }
}
