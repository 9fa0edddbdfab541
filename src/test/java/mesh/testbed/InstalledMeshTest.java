package mesh.testbed;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Set;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * Marks a test class that raises an {@link InstalledMesh}. The ITs run on two threads (the Failsafe configuration in
 * pom.xml turns on JUnit's parallel execution): every unmarked class runs on the main line, one after the other, on the
 * test-bed nodes n1.., the root engine and the root PostgreSQL; the classes marked here run beside it, on the test-bed
 * nodes of an installed mesh (n11.., n21.. or n31.., {@link InstalledMesh#raise}: at most three such meshes at once,
 * beside the main line from its start, and a fourth on n1.. once the main line is done, {@link MeshRanges}; JUnit starts more
 * marked classes than that, and they wait for a range). Nothing but the machine's CPU is shared between a marked class and
 * any other; a marked class must use nothing of the main line's.
 *
 * <p>A marked class holds a lock of its own ({@link OwnLock}): JUnit then runs its methods one after the other, in
 * their order, on one thread.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(providers = InstalledMeshTest.OwnLock.class)
public @interface InstalledMeshTest {

    /** A lock named after the class alone: it keeps out nothing but the class's own methods' running side by side. */
    final class OwnLock implements ResourceLocksProvider {
        @Override
        public Set<Lock> provideForClass(Class<?> testClass) {
            return Set.of(new Lock("mesh.testbed.class:" + testClass.getName()));
        }
    }
}
