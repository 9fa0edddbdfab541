package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.model.DrainModuleState;
import mesh.model.DrainStep;
import mesh.model.OperationState;
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

    @Test
    void theSummarySaysWhatMovedWhereItsDowntimeAndWhatIsLeftAndWhy() {
        DrainView done = new DrainView(1, "n2", List.of(), 1, null, DrainStep.DONE, OperationState.DONE, false, List.of(
                m("a", DrainModuleState.MOVED, "n3", null, 800L), m("b", DrainModuleState.MOVED, "n4", null, 2500L),
                m("c", DrainModuleState.FAILED, "n3", "its take rolled-back: no room", null)), null, null);
        assertEquals(List.of("drain of n2 done: 2 moved, 1 left", "  moved a to n3 (down 0.8 s)", "  moved b to n4 (down 2.5 s)",
                "  failed c (to n3): its take rolled-back: no room", "longest downtime: 2.5 s"), DrainLines.summary(done));
    }
}
