package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import org.junit.jupiter.api.Test;

/** ApplyStepTest: applied only when every action succeeded and a fresh look matches; an empty plan applies nothing. */
class ApplyStepTest {

    static final Declaration D = PassStepsFixture.declaration(3, PassStepsFixture.WEB, PassStepsFixture.DB);
    static final List<ObservedContainer> BOTH = List.of(PassStepsFixture.running(PassStepsFixture.WEB),
            PassStepsFixture.running(PassStepsFixture.DB));

    @Test
    void anEmptyPlanWritesNothingAndIsApplied() {
        AtomicInteger applies = new AtomicInteger();
        PassStep.Context pass = PassStepsFixture.observed(D, BOTH);
        new ApplyStep((d, plan) -> {
            applies.incrementAndGet();
            return new ApplyReport();
        }, node -> BOTH).run(pass);
        assertEquals(0, applies.get());
        assertTrue(pass.done);
    }

    @Test
    void appliedWhenTheApplySucceedsAndTheFreshLookMatches() {
        PassStep.Context pass = PassStepsFixture.observed(D, List.of(PassStepsFixture.running(PassStepsFixture.WEB)));
        new ApplyStep((d, plan) -> new ApplyReport(), node -> BOTH).run(pass);
        assertTrue(pass.done);
        assertEquals(java.util.Map.of(), pass.failing);
    }

    @Test
    void notAppliedWhenTheFreshLookStillDiffers() {
        PassStep.Context pass = PassStepsFixture.observed(D, List.of());
        new ApplyStep((d, plan) -> new ApplyReport(), node -> List.of(PassStepsFixture.running(PassStepsFixture.WEB))).run(pass);
        assertFalse(pass.done, "db.server is still missing");
    }

    @Test
    void aFailedComponentIsNamedAndNothingIsApplied() {
        PassStep.Context pass = PassStepsFixture.observed(D, List.of());
        new ApplyStep((d, plan) -> {
            ApplyReport r = new ApplyReport();
            r.failed("db.server", "image not found");
            return r;
        }, node -> BOTH).run(pass);
        assertFalse(pass.done);
        assertEquals(java.util.Map.of("db.server", "image not found"), pass.failing);
    }
}
