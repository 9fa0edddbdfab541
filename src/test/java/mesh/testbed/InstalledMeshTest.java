package mesh.testbed;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Marks a test class that raises an {@link InstalledMesh}. The ITs run as two lines side by side (the
 * Failsafe configuration in pom.xml turns on JUnit's parallel execution with two threads, every class
 * on the main line by default): the classes marked here run one at a time on the other line, on the
 * test-bed nodes {@link InstalledMesh} uses (n11.., see {@link TestbedNodes#installed}), while the rest run
 * one at a time on the main line, on n1.., the root engine and the root PostgreSQL. Nothing but the
 * machine's CPU is shared between the two lines; a class that needs anything of the main line's must
 * not carry this mark.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(InstalledMeshTest.NODES)
public @interface InstalledMeshTest {

    /** The lock the marked classes hold for their whole run: one installed mesh at a time. */
    String NODES = "mesh.testbed.installed-nodes";
}
