package mesh.host;

import static mesh.model.Specs.declaration;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoEngineRestartsTest {

    @Test
    void setsThePolicyOnceInTheAgentsLifeRetryingUntilTheEngineAnswers() {
        List<String> said = new ArrayList<>();
        int[] calls = {0};
        boolean[] engineUp = {false};
        NoEngineRestarts step = new NoEngineRestarts(() -> {
            calls[0]++;
            if (!engineUp[0]) {
                throw new IllegalStateException("the engine does not answer");
            }
            return List.of("web.server", "db.server");
        }, said::add);
        PassStep.Context pass = new PassStep.Context(declaration("n1", 1), Instant.EPOCH);
        assertThrows(IllegalStateException.class, () -> step.run(pass), "an engine failure fails the pass, as any step's");
        engineUp[0] = true;
        step.run(pass);
        step.run(pass);
        assertEquals(2, calls[0], "asked until the engine answered, then never again");
        assertEquals(List.of("restart policy set to no on web.server, db.server: the agent starts them again when they end,"
                + " never the engine"), said);
    }
}
