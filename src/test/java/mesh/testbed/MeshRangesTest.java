package mesh.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * MeshRangesTest: installed meshes get two ranges beside the main line and the main line's nodes once it is done, and
 * {@link MainLine} says it is done when the last class not marked {@link InstalledMeshTest} has finished, on a test plan
 * the JUnit Platform discovers (the classes below are discovered, never run: Surefire leaves nested classes out).
 */
class MeshRangesTest {

    @Test
    void threeRangesBesideTheMainLineAndItsNodesOnceItIsDone() throws Exception {
        MeshRanges ranges = new MeshRanges(160, 3);
        assertEquals(170, ranges.take(Duration.ZERO));
        assertEquals(180, ranges.take(Duration.ZERO));
        assertEquals(190, ranges.take(Duration.ZERO));
        assertNull(ranges.take(Duration.ofMillis(50)), "a fourth mesh waits while the main line runs");
        ranges.mainLineDone();
        assertEquals(160, ranges.take(Duration.ZERO), "the main line's nodes are a range once it is done");
    }

    @Test
    void twoRangesBesideTheMainLineAndItsNodesOnceItIsDone() throws Exception {
        MeshRanges ranges = new MeshRanges(190, 2);
        assertEquals(200, ranges.take(Duration.ZERO));
        assertEquals(210, ranges.take(Duration.ZERO));
        assertNull(ranges.take(Duration.ofMillis(50)), "a third mesh waits while the main line runs");
        ranges.mainLineDone();
        ranges.mainLineDone();
        assertEquals(190, ranges.take(Duration.ZERO), "the main line's nodes are a range once it is done");
        assertNull(ranges.take(Duration.ofMillis(50)), "told twice, still one range more, not two");
        ranges.give(210);
        assertEquals(210, ranges.take(Duration.ZERO), "a closed mesh gives its range back");
    }

    @Test
    void theMainLineIsDoneWhenItsLastUnmarkedClassHasFinished() {
        TestPlan plan = plan(Unmarked.class, AlsoUnmarked.class, Marked.class);
        AtomicInteger told = new AtomicInteger();
        MainLine line = new MainLine(told::incrementAndGet);
        line.testPlanExecutionStarted(plan);
        line.executionFinished(classIn(plan, Marked.class), TestExecutionResult.successful());
        line.executionFinished(classIn(plan, Unmarked.class), TestExecutionResult.failed(new AssertionError("a failure ends it too")));
        assertEquals(0, told.get(), "one unmarked class still runs");
        line.executionSkipped(classIn(plan, AlsoUnmarked.class), "disabled");
        assertEquals(1, told.get(), "the last unmarked class is done");
    }

    @Test
    void aRunOfMarkedClassesAloneHasNoMainLineToWaitFor() {
        TestPlan plan = plan(Marked.class);
        AtomicInteger told = new AtomicInteger();
        new MainLine(told::incrementAndGet).testPlanExecutionStarted(plan);
        assertEquals(1, told.get());
    }

    @Test
    void aRunWithNoMarkedClassTellsNothing() {
        TestPlan plan = plan(Unmarked.class);
        AtomicInteger told = new AtomicInteger();
        MainLine line = new MainLine(told::incrementAndGet);
        line.testPlanExecutionStarted(plan);
        line.executionFinished(classIn(plan, Unmarked.class), TestExecutionResult.successful());
        assertEquals(0, told.get(), "no installed mesh waits for a range");
    }

    static TestPlan plan(Class<?>... classes) {
        return LauncherFactory.create().discover(request()
                .selectors(Arrays.stream(classes).map(DiscoverySelectors::selectClass).toList()).build());
    }

    static TestIdentifier classIn(TestPlan plan, Class<?> c) {
        return plan.getRoots().stream().flatMap(r -> plan.getChildren(r).stream())
                .filter(i -> i.getSource().orElse(null) instanceof ClassSource cs && cs.getJavaClass() == c)
                .findFirst().orElseThrow(() -> new AssertionError(c + " is not in the plan"));
    }

    static class Unmarked {
        @Test
        void runs() {
        }
    }

    static class AlsoUnmarked {
        @Test
        void runs() {
        }
    }

    @InstalledMeshTest
    static class Marked {
        @Test
        void runs() {
        }
    }
}
