package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import mesh.model.DrainModuleState;
import mesh.model.DrainStep;
import mesh.model.OperationState;
import mesh.plan.DrainPlacement;
import mesh.wire.DrainView;
import org.junit.jupiter.api.Test;

class DrainLinesTest {

    static DrainView.Module m(String name, DrainModuleState s, String to, String why, Long ms) {
        return new DrainView.Module(name, s, to, why, ms);
    }

    static DrainView view(DrainStep step, DrainView.Module... modules) {
        return new DrainView(1, "n2", List.of("n3", "n4"), 2, null, step, step.state(), true, List.of(modules), null, null);
    }

    @Test
    void eachChangeIsALine() {
        DrainView placed = view(DrainStep.MOVE, m("a", DrainModuleState.PENDING, "n3", null, null),
                m("b", DrainModuleState.PENDING, "n4", null, null), m("c", DrainModuleState.PENDING, "n3", null, null),
                m("mesh-store", DrainModuleState.LEFT, null, "the store stays", null));
        assertEquals(List.of("cordoned n2: no new work goes onto it", "placed 4 modules: 3 to move, 1 left",
                "left mesh-store: the store stays", "moving a to n3, b to n4"), DrainLines.since(null, placed));
        DrainView later = view(DrainStep.MOVE, m("a", DrainModuleState.MOVED, "n3", null, 1234L),
                m("b", DrainModuleState.FAILED, "n4", "its take rolled-back: image refused", null),
                m("c", DrainModuleState.PENDING, "n3", null, null), m("mesh-store", DrainModuleState.LEFT, null, "the store stays", null));
        assertEquals(List.of("moved a to n3 (down 1.2 s)", "failed b (to n4): its take rolled-back: image refused", "moving c to n3"),
                DrainLines.since(placed, later));
        assertEquals(List.of(), DrainLines.since(later, later));
    }

    @Test
    void theModulesMovingNowAreTheFirstKPendingAsThePlanBatchesThemTwoOntoOneTargetToo() {
        DrainView placed = view(DrainStep.MOVE, m("a", DrainModuleState.PENDING, "n3", null, null),
                m("c", DrainModuleState.PENDING, "n3", null, null), m("b", DrainModuleState.PENDING, "n4", null, null));
        assertEquals(List.of("a to n3", "c to n3"), DrainLines.batch(placed));
    }

    /**
     * A full disk: the placement rule refuses a target without room for the module's data (DrainPlacementTest), and
     * the drain names the module it leaves with that reason as it places, and again in its summary.
     */
    @Test
    void aModuleNoTargetHasRoomForIsNamedWithEachTargetsRoomAsItIsPlacedAndAtTheEnd() {
        long mb = 1_000_000L;
        DrainPlacement.Result plan = DrainPlacement.place("n2",
                List.of(new DrainPlacement.Module("big", 600 * mb, Set.of()), new DrainPlacement.Module("small", 10 * mb, Set.of())),
                List.of(new DrainPlacement.Target("n2", false, 0, Set.of()), new DrainPlacement.Target("n3", false, 500 * mb, Set.of()),
                        new DrainPlacement.Target("n4", false, 100 * mb, Set.of())), List.of("n3", "n4"));
        List<DrainView.Module> placed = new ArrayList<>();
        plan.placed().forEach(p -> placed.add(m(p.module(), DrainModuleState.PENDING, p.target(), null, null)));
        plan.left().forEach(l -> placed.add(m(l.module(), DrainModuleState.LEFT, null, l.why(), null)));
        String full = "left big: no target fits: n3: room for 500 MB, its data is 600 MB; n4: room for 100 MB, its data is 600 MB";
        assertEquals(List.of("cordoned n2: no new work goes onto it", "placed 2 modules: 1 to move, 1 left", full, "moving small to n3"),
                DrainLines.since(null, view(DrainStep.MOVE, placed.toArray(DrainView.Module[]::new))));
        DrainView done = new DrainView(1, "n2", List.of("n3", "n4"), 2, null, DrainStep.DONE, OperationState.DONE, false, List.of(
                m("small", DrainModuleState.MOVED, "n3", null, 300L), placed.get(1)), null, null);
        assertEquals(List.of("drain of n2 done: 1 moved, 1 left", "  moved small to n3 (down 0.3 s)", "  " + full,
                "longest downtime: 0.3 s"), DrainLines.summary(done));
    }

    @Test
    void theSummarySaysWhatMovedWhereItsDowntimeAndWhatIsLeftAndWhy() {
        DrainView done = new DrainView(1, "n2", List.of(), 1, null, DrainStep.DONE, OperationState.DONE, false, List.of(
                m("a", DrainModuleState.MOVED, "n3", null, 800L), m("b", DrainModuleState.MOVED, "n4", null, 2500L),
                m("c", DrainModuleState.FAILED, "n3", "its take rolled-back: no room", null)), null, null);
        assertEquals(List.of("drain of n2 done: 2 moved, 1 left", "  moved a to n3 (down 0.8 s)", "  moved b to n4 (down 2.5 s)",
                "  failed c (to n3): its take rolled-back: no room", "longest downtime: 2.5 s"), DrainLines.summary(done));
    }
}
