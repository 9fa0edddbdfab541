package mesh.host;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import mesh.host.edge.EdgeKeeper;
import org.junit.jupiter.api.Test;

/** KeepEdgeTest: an agent without an edge keeper keeps none; a node that is no edge has no edge status, whatever it had. */
class KeepEdgeTest {

    @Test
    void anAgentBuiltWithoutAnEdgeKeeperKeepsNone() {
        PassStep.Context pass = new PassStep.Context(PassStepsFixture.declaration(1), PassStepsFixture.NOW);
        assertDoesNotThrow(() -> new KeepEdge(null, PassStepsFixture.state(), null).run(pass));
    }

    @Test
    void aNodeThatIsNoEdgeHasNoEdgeStatusAndItsNameIsKept() {
        EdgeKeeper keeper = new EdgeKeeper();
        new KeepEdge(keeper, PassStepsFixture.state(), null).run(new PassStep.Context(PassStepsFixture.declaration(2),
                PassStepsFixture.NOW));
        assertNull(keeper.status());
        assertEquals("n1", keeper.node());
    }
}
