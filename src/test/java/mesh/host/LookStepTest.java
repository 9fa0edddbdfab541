package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import mesh.model.Declaration;
import mesh.model.Vitals;
import org.junit.jupiter.api.Test;

/** LookStepTest: what a look saw is kept with the last exit known, failures are noted, and the pass's generation is judged. */
class LookStepTest {

    @Test
    void keepsTheLastExitAcrossLooksAndJudgesThePassesGeneration() {
        Declaration d = PassStepsFixture.declaration(5, PassStepsFixture.WEB);
        AgentState state = PassStepsFixture.state();
        state.lastVitals = Map.of("web.server", new Vitals(false, 1, "exited 137", null, null));
        PassStep.Context pass = PassStepsFixture.observed(d, List.of(PassStepsFixture.running(PassStepsFixture.WEB)));
        pass.failing = Map.of("db.server", "image not found");
        new LookStep((decl, observed, now) -> Map.of("web.server", new Vitals(true, 1, null, now, null)), state,
                PassStepsFixture.CLOCK).run(pass);
        assertEquals("exited 137", state.lastVitals.get("web.server").lastExit(), "running again says not how it ended");
        assertEquals(Map.of("db.server", "image not found"), state.failures.reasons());
        assertEquals(5, state.judgedGeneration);
    }

    @Test
    void aRestartedComponentDoesNotKeepAnOlderExit() {
        Map<String, Vitals> merged = LookStep.merged(Map.of("a", new Vitals(true, 1, null, null, null)),
                Map.of("a", new Vitals(false, 2, "exited 1", null, null)));
        assertEquals(null, merged.get("a").lastExit(), "fewer restarts than before: another container");
    }
}
