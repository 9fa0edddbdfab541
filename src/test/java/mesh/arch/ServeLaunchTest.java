package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import mesh.testbed.Launcher;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.Test;

/**
 * ServeLaunchTest keeps the tests on the product as installed: a server verb ({@code mesh host serve},
 * {@code mesh controller serve}) is started only through {@link Launcher} (the launcher {@code mesh install}
 * writes, with its serve flags), by {@link mesh.testbed.InstalledMesh} or by one of the classes
 * {@link Launcher#PLAIN_HTTP} names with why; no test source runs the packaged jar another way, and
 * {@link PackagedMesh#command} refuses the serve verbs at run time.
 */
class ServeLaunchTest {

    static final Path TESTS = Path.of("src/test/java");
    static final Pattern USES_LAUNCHER = Pattern.compile("\\bLauncher\\s*\\.\\s*(shared|installed|of)\\s*\\(");
    static final Pattern RUNS_THE_JAR = Pattern.compile("quarkus-run\\.jar|\"-jar\"");
    static final Pattern QUARKUS_LAUNCHES_A_SERVER = Pattern.compile("\\.launch\\(\\s*\"(host|controller)\"\\s*,\\s*\"serve\"");
    /** PackagedMesh.command given a serve verb: refused at run time; caught here before a test runs it. */
    static final Pattern PACKAGED_SERVER = Pattern.compile("PackagedMesh\\s*\\.\\s*command\\([^;]*\"(host|controller)\"\\s*,\\s*\"serve\"");

    /** The fixture that raises meshes with mesh install, the launcher and verb runner themselves, and the builder of other builds. */
    static final Set<String> FIXTURE = Set.of("mesh.testbed.InstalledMesh", "mesh.testbed.Launcher", "mesh.testbed.PackagedMesh",
            "mesh.testbed.OtherBuild");

    /** Pure tests that only spell the packaged jar's command line as data (the launcher's, a process seen), running nothing. */
    static final Set<String> DESCRIBES_THE_JAR = Set.of("mesh.install.RunningMeshTest", "mesh.plan.TempControllersTest");

    @Test
    void onlyTheFixtureAndTheNamedClassesStartServers() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path file : sources()) {
            String name = className(file);
            String code = Files.readString(file);
            boolean allowed = FIXTURE.contains(name) || Launcher.PLAIN_HTTP.containsKey(name);
            if (USES_LAUNCHER.matcher(code).find() && !allowed) {
                problems.add(name + " starts a server through Launcher: raise a mesh with mesh.testbed.InstalledMesh, "
                        + "or name the class and why in Launcher.PLAIN_HTTP");
            }
            if (PACKAGED_SERVER.matcher(code).find() && !name.equals("mesh.arch.ServeLaunchTest")) {
                problems.add(name + " gives PackagedMesh.command a serve verb, which it refuses: start it through Launcher");
            }
            if (QUARKUS_LAUNCHES_A_SERVER.matcher(code).find() && !allowed) {
                problems.add(name + " has Quarkus launch a serve verb with java -jar");
            }
            if (RUNS_THE_JAR.matcher(code).find() && !FIXTURE.contains(name) && !DESCRIBES_THE_JAR.contains(name)) {
                problems.add(name + " runs the packaged jar itself: use PackagedMesh.run for verbs, Launcher for servers");
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void everyNamedClassExistsSoTheListCannotRotInPlace() throws IOException {
        Set<String> classes = new TreeSet<>();
        for (Path file : sources()) {
            classes.add(className(file));
        }
        for (String named : Launcher.PLAIN_HTTP.keySet()) {
            assertTrue(classes.contains(named), named + " is named in Launcher.PLAIN_HTTP but is no test class");
        }
    }

    @Test
    void thePackagedMeshRefusesToRunAServerVerbTheOtherWay() {
        for (List<String> args : List.of(List.of("host", "serve"), List.of("controller", "serve"),
                List.of("host", "serve", "--config", "host.env"))) {
            AssertionError refused = assertThrows(AssertionError.class, () -> PackagedMesh.command(Path.of("app"), null, args));
            assertTrue(refused.getMessage().contains("start it through mesh.testbed.Launcher"), refused.getMessage());
        }
        assertEquals("status", PackagedMesh.command(Path.of("app"), null, List.of("status")).getLast());
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(TESTS)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
    }

    private static String className(Path file) {
        String rel = TESTS.relativize(file).toString();
        return rel.substring(0, rel.length() - ".java".length()).replace('/', '.');
    }
}
