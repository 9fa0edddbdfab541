package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import mesh.model.DrainStep;
import mesh.plan.Drain.Item;
import mesh.model.DrainModuleState;
import org.junit.jupiter.api.Test;

class DrainPlanTest {

    static Item pending(String m, String to) {
        return new Item(m, DrainModuleState.PENDING, to, null, null);
    }

    static Drain moving(int k, Item... items) {
        return Drain.start(1, "n2", List.of("n3"), k, null).at(DrainStep.MOVE, List.of(items), null, null);
    }

    @Test
    void cordonThenPlaceThenMove() {
        Drain d = Drain.start(1, "n2", List.of(), 2, null);
        d = DrainPlan.PLAN.after(d, new Operation.Done());
        assertEquals(DrainStep.PLACE, d.step());
        d = DrainPlan.PLAN.after(d, new DrainPlan.Placed(List.of(pending("a", "n3"),
                new Item("mesh-controller", DrainModuleState.LEFT, null, "stays", null))));
        assertEquals(DrainStep.MOVE, d.step());
        assertEquals(2, d.modules().size());
    }

    @Test
    void aNodeWithNothingToMoveIsDoneAtOnce() {
        Drain d = Drain.start(1, "n2", List.of(), 1, null).at(DrainStep.PLACE, List.of(), null, null);
        assertEquals(DrainStep.DONE, DrainPlan.PLAN.after(d, new DrainPlan.Placed(List.of())).step());
    }

    @Test
    void aBatchIsTheFirstKPendingWhateverTheirTargets() {
        Drain d = moving(2, new Item("x", DrainModuleState.MOVED, "n3", null, 5L), pending("a", "n3"), pending("b", "n4"), pending("c", "n3"));
        assertEquals(List.of("a", "b"), DrainPlan.batch(d).stream().map(Item::module).toList());
        Drain sameTarget = moving(3, pending("a", "n3"), pending("c", "n3"), pending("b", "n4"), pending("d", "n4"), pending("e", "n5"));
        assertEquals(List.of("a", "c", "b"), DrainPlan.batch(sameTarget).stream().map(Item::module).toList(),
                "two takes onto one node at once: each start keeps the other's module");
        assertEquals(List.of("a", "c"), DrainPlan.batch(moving(4, pending("a", "n3"), pending("c", "n3"))).stream().map(Item::module).toList());
    }

    @Test
    void aFailedTakeIsRecordedAndTheDrainGoesOn() {
        Drain d = moving(2, pending("a", "n3"), pending("b", "n4"), pending("c", "n3"));
        d = DrainPlan.PLAN.after(d, new DrainPlan.Moved(List.of(pending("a", "n3").with(DrainModuleState.MOVED, null, 900L),
                pending("b", "n4").with(DrainModuleState.FAILED, "preflight: image refused", null)), false));
        assertEquals(DrainStep.MOVE, d.step());
        assertEquals(List.of("c"), d.pending().stream().map(Item::module).toList());
        assertEquals("preflight: image refused", d.modules().get(1).reason());
        d = DrainPlan.PLAN.after(d, new DrainPlan.Moved(List.of(pending("c", "n3").with(DrainModuleState.MOVED, null, 700L)), false));
        assertEquals(DrainStep.DONE, d.step());
    }

    @Test
    void pastTheDeadlineWhatDidNotBeginIsLeftWithWhy() {
        Drain d = moving(1, pending("a", "n3"), pending("b", "n4"));
        d = DrainPlan.PLAN.after(d, new DrainPlan.Moved(List.of(pending("a", "n3").with(DrainModuleState.MOVED, null, 1L)), true));
        assertEquals(DrainStep.DONE, d.step());
        assertEquals(DrainModuleState.LEFT, d.modules().get(1).state());
        assertEquals("the drain's deadline passed before its take began", d.modules().get(1).reason());
    }

    @Test
    void lateOnlyPastADeadline() {
        java.time.Instant t = java.time.Instant.parse("2026-12-06T02:00:00Z");
        assertEquals(false, DrainPlan.late(Drain.start(1, "n2", List.of(), 1, null), t));
        assertEquals(false, DrainPlan.late(Drain.start(1, "n2", List.of(), 1, t), t));
        assertEquals(true, DrainPlan.late(Drain.start(1, "n2", List.of(), 1, t), t.plusMillis(1)));
    }

    @Test
    void aFailedStepStaysWithItsProblemAndOnlyAMoveWaitsAfterEveryTry() {
        Drain d = moving(1, pending("a", "n3"));
        Drain failed = DrainPlan.PLAN.after(d, new Operation.Failed(Operation.Reason.UNREACHABLE, "n3 did not answer"));
        assertEquals(DrainStep.MOVE, failed.step());
        assertEquals("n3 did not answer", failed.problem());
        assertEquals(DrainStep.MOVE, DrainPlan.PLAN.gaveUp(failed).step());
        Drain cordon = DrainPlan.PLAN.after(Drain.start(1, "n2", List.of(), 1, null), new Operation.Failed(null, "store down"));
        Drain gave = DrainPlan.PLAN.gaveUp(cordon);
        assertEquals(DrainStep.FAILED, gave.step());
        assertEquals("store down", gave.error());
        assertNull(gave.problem());
    }
}
