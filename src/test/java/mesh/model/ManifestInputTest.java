package mesh.model;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ManifestInputTest is the table of bad manifests: each is refused with a problem that names the
 * file, line, column and field path and says what is wrong in the manifest's words, never in a
 * Java class's or a library's.
 */
class ManifestInputTest {

    /** A good module to break: line 3 is the component, line 4 its image; a line appended is line 5. */
    static final String WEB = "module: a\ncomponents:\n  a.web:\n    image: mesh-test/busybox:1\n";
    static final List<String> FORBIDDEN = List.of("java.", "Exception", "Coercion", "jackson", "Jackson", "quarkus",
            "mesh.model", "$", "snakeyaml", "SnakeYAML");
    static final Pattern POSITIONED = Pattern.compile("bad\\.yaml:\\d+:\\d+: .+");

    /** Case is one bad manifest and the problem it must be refused with, from its position on. */
    record Case(String name, String yaml, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case bad(String name, String yaml, String expected) {
        return new Case(name, yaml, "bad.yaml:" + expected);
    }

    /** A component field appended to {@link #WEB}, on line 5. */
    static Case field(String name, String line, String expected) {
        return bad(name, WEB + "    " + line + "\n", expected);
    }

    static Stream<Case> cases() {
        return Stream.of(ManifestInputCases.syntax(), ManifestInputCases.types(), ManifestInputCases.names(),
                ManifestInputCases.fields()).flatMap(List::stream);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyBadManifestIsRefusedAtItsLineColumnAndField(Case c) {
        InvalidInput refused = assertThrows(InvalidInput.class, () -> ManifestYaml.parse("bad.yaml", c.yaml()),
                "refused: " + c.name());
        List<String> problems = refused.problems();
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertTrue(problems.stream().anyMatch(p -> p.contains(c.expected())),
                "expected a problem containing\n  " + c.expected() + "\ngot\n  " + String.join("\n  ", problems)));
        for (String p : problems) {
            checks.add(() -> assertTrue(POSITIONED.matcher(p).matches(), "names file:line:column: " + p));
            for (String word : FORBIDDEN) {
                checks.add(() -> assertTrue(!p.contains(word), "says '" + word + "': " + p));
            }
        }
        assertAll(c.name(), checks);
    }

    @Test
    void theTableHoldsAtLeastSixtyBadManifests() {
        assertTrue(cases().count() >= 60, "cases: " + cases().count());
    }

    @Test
    void everyProblemOfAFileComesOutOfOneRun() {
        String yaml = """
                module: My_Module
                components:
                  a.web:
                    image: Busybox
                    ports: ["8080", 70000]
                    env: {A: ~}
                    stop-timeout: 5 s
                    colour: red
                routes:
                  w.w: {component: a.nope, port: 0}
                """;
        List<String> problems = assertThrows(InvalidInput.class, () -> ManifestYaml.parse("bad.yaml", yaml)).problems();
        assertEquals(List.of(
                "bad.yaml:1:9: module: not a valid name: \"My_Module\" has '_', which a DNS name cannot hold; use '-'",
                "bad.yaml:8:5: components.a.web.colour: unknown field (known here: image, bundle, args, env, binds, volumes, ports, health, after, stop-timeout, backup, replace)",
                "bad.yaml:4:12: components.a.web.image: not an image reference: \"Busybox\"; Docker refuses upper-case letters in a repository name",
                "bad.yaml:6:14: components.a.web.env.A: needs a value; write A: \"\" for an empty one",
                "bad.yaml:5:13: components.a.web.ports[0]: a number, got \"8080\"",
                "bad.yaml:5:21: components.a.web.ports[1]: must be 1-65535, got 70000",
                "bad.yaml:7:19: components.a.web.stop-timeout: must be a duration like 30s, 5m, 1h or 1h30m (a bare number is seconds), got \"5 s\"",
                "bad.yaml:10:3: routes.w.w: must be one DNS label, without '.' (lower-case letters, digits and '-', 1-63 characters, not starting or ending with '-'), got \"w.w\"",
                "bad.yaml:10:20: routes.w.w.component: must name a component of this module, got \"a.nope\" (components: a.web)",
                "bad.yaml:10:34: routes.w.w.port: must be 1-65535, got 0"), problems);
    }
}
