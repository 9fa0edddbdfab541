package mesh.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * LongestFirst orders the ITs so that the classes marked {@link InstalledMeshTest} take their ranges of test-bed nodes
 * ({@link MeshRanges}) longest first: the suite ends when its last installed mesh does, and a long class started last
 * (MovedCopyIT, the four Take classes, in alphabetical order) leaves the other ranges idle while it ends. The times are
 * measured ones ({@code mesh/testbed/installed-times.txt}); a class not listed goes first, as if it were the longest.
 * The classes not marked (the main line, one after the other) keep their alphabetical order, after them: JUnit runs
 * them on a line of their own whatever their place. Set for the ITs in pom.xml as the order within Quarkus's own
 * orderer (the system property {@code junit.quarkus.orderer.secondary-orderer}): Quarkus's keeps the {@code @QuarkusTest}
 * classes together and fails the run if JUnit's default orderer is set to another.
 */
public final class LongestFirst implements ClassOrderer {

    static final String TIMES = "mesh/testbed/installed-times.txt";

    private final Map<String, Integer> seconds;

    public LongestFirst() {
        this(read());
    }

    LongestFirst(Map<String, Integer> seconds) {
        this.seconds = seconds;
    }

    @Override
    public void orderClasses(ClassOrdererContext context) {
        Set<String> installed = context.getClassDescriptors().stream().map(ClassDescriptor::getTestClass)
                .filter(c -> c.isAnnotationPresent(InstalledMeshTest.class)).map(Class::getSimpleName).collect(Collectors.toSet());
        context.getClassDescriptors().sort(Comparator.comparing(d -> d.getTestClass().getSimpleName(), order(installed::contains)));
    }

    /** Installed classes first, the longest first (unknown ones before all), then the others by name. */
    List<String> order(List<String> names, Predicate<String> installed) {
        return names.stream().sorted(order(installed)).toList();
    }

    private Comparator<String> order(Predicate<String> installed) {
        return Comparator.comparing((String n) -> !installed.test(n))
                .thenComparing(n -> installed.test(n) ? seconds.getOrDefault(n, Integer.MAX_VALUE) : 0, Comparator.reverseOrder())
                .thenComparing(n -> n);
    }

    /** The times file: "ClassSimpleName seconds" a line, # comments. */
    static Map<String, Integer> parse(String text) {
        Map<String, Integer> out = new HashMap<>();
        text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(l -> {
            String[] f = l.split("\\s+");
            if (f.length != 2 || !f[1].matches("\\d{1,6}")) {
                throw new IllegalArgumentException(TIMES + ": not \"ClassName seconds\": " + l);
            }
            out.put(f[0], Integer.parseInt(f[1]));
        });
        return out;
    }

    private static Map<String, Integer> read() {
        try (InputStream in = LongestFirst.class.getClassLoader().getResourceAsStream(TIMES)) {
            if (in == null) {
                throw new IllegalStateException("no " + TIMES + " on the test class path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
