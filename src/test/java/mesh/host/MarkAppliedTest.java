package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mesh.model.Declaration;
import org.junit.jupiter.api.Test;

/** MarkAppliedTest: a pass marks its own declaration applied, never one a push has replaced meanwhile. */
class MarkAppliedTest {

    @Test
    void marksThePassesDeclarationAppliedOrNot() {
        AgentState state = PassStepsFixture.state();
        Declaration d = PassStepsFixture.declaration(4);
        state.desire(d);
        PassStep.Context pass = new PassStep.Context(d, PassStepsFixture.NOW);
        pass.done = true;
        new MarkApplied(state).run(pass);
        assertTrue(state.converged);
        assertEquals(4, state.appliedGeneration);
        pass.done = false;
        new MarkApplied(state).run(pass);
        assertFalse(state.converged);
        assertEquals(4, state.appliedGeneration, "what was applied stays applied");
    }

    @Test
    void aPushAcceptedDuringThePassWins() {
        AgentState state = PassStepsFixture.state();
        Declaration old = PassStepsFixture.declaration(4);
        PassStep.Context pass = new PassStep.Context(old, PassStepsFixture.NOW);
        state.desire(PassStepsFixture.declaration(5));
        pass.done = true;
        new MarkApplied(state).run(pass);
        assertFalse(state.converged, "generation 5 is not applied by a pass over 4");
        assertEquals(0, state.appliedGeneration);
    }
}
