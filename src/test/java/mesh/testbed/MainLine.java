package mesh.testbed;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * MainLine watches the run for the end of the main line: the top-level test classes not marked
 * {@link InstalledMeshTest}, which run one after the other on the test-bed nodes nK.. When the last of them has finished
 * (or when a run has none), it tells {@link MeshRanges}, which makes those nodes a range for installed meshes. Registered
 * with the JUnit Platform's launcher (META-INF/services), so it sees every run; a run with no marked class (the unit
 * tests) raises no installed mesh, and it tells nothing there.
 */
public final class MainLine implements TestExecutionListener {

    private final Runnable done;
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private volatile boolean meshes;

    /** The listener the launcher finds: it tells the suite's ranges. */
    public MainLine() {
        this(MeshRanges.SUITE::mainLineDone);
    }

    /** A listener that runs {@code done} when the main line is done. */
    MainLine(Runnable done) {
        this.done = done;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier c : plan.getChildren(root)) {
                if (c.getSource().orElse(null) instanceof ClassSource cs) {
                    if (marked(cs)) {
                        meshes = true;
                    } else {
                        running.add(c.getUniqueId());
                    }
                }
            }
        }
        if (meshes && running.isEmpty()) {
            done.run();
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        ended(id);
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        ended(id);
    }

    private void ended(TestIdentifier id) {
        if (running.remove(id.getUniqueId()) && running.isEmpty() && meshes) {
            done.run();
        }
    }

    private static boolean marked(ClassSource cs) {
        try {
            return cs.getJavaClass().isAnnotationPresent(InstalledMeshTest.class);
        } catch (RuntimeException | LinkageError notLoaded) {
            return false;
        }
    }
}
