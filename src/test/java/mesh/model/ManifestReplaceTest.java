package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ManifestReplaceTest is a component's {@code replace:}: start-first reaches the spec a node runs, stop-first is the
 * default, and start-first is refused where two copies cannot run side by side, each time saying why.
 */
class ManifestReplaceTest {

    private static final String HEAD = "module: a\ncomponents:\n  a.web:\n";
    private static final String HEALTHY = "    image: mesh-test/busybox:1\n    ports: [8080]\n"
            + "    health: {http: /, port: 8080}\n";

    @Test
    void startFirstReachesTheSpecAndStopFirstIsTheDefault() {
        Manifest cut = ManifestYaml.parse("a.yaml", HEAD + HEALTHY + "    replace: start-first\n");
        assertEquals(ComponentSpec.START_FIRST, cut.components().get("a.web").replace());
        ComponentSpec spec = Manifests.spec(cut, "a.web", Map.of());
        assertTrue(spec.startFirst());
        assertTrue(spec.withSecrets(Map.of()).startFirst(), "kept by a copy of the spec");
        assertTrue(spec.withAfter(List.of()).startFirst(), "kept by a copy of the spec");

        for (String yaml : List.of(HEAD + HEALTHY, HEAD + HEALTHY + "    replace: stop-first\n")) {
            Manifest plain = ManifestYaml.parse("a.yaml", yaml);
            assertNull(plain.components().get("a.web").replace());
            assertFalse(Manifests.spec(plain, "a.web", Map.of()).startFirst());
        }
    }

    @Test
    void startFirstIsNotDigestedSoOptingInReplacesNothing() {
        ComponentSpec plain = Manifests.spec(ManifestYaml.parse("a.yaml", HEAD + HEALTHY), "a.web", Map.of());
        ComponentSpec cut = Manifests.spec(ManifestYaml.parse("a.yaml", HEAD + HEALTHY + "    replace: start-first\n"),
                "a.web", Map.of());
        assertEquals(SpecDigest.of(ContainerRequest.of(plain, "10.0.0.1")), SpecDigest.of(ContainerRequest.of(cut, "10.0.0.1")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "a volume|'    image: mesh-test/busybox:1\\n    ports: [8080]\\n    health: {http: /, port: 8080}\\n    volumes: {data: /data}\\n'"
                + "|8:14: components.a.web.replace: start-first refused: both copies would write volume data at once",
        "a process|'    bundle: web:1\\n    ports: [8080]\\n    health: {http: /, port: 8080}\\n'"
                + "|7:14: components.a.web.replace: start-first refused: a process listens on the node's own port",
        "no health check|'    image: mesh-test/busybox:1\\n    ports: [8080]\\n    health: ~\\n'"
                + "|7:14: components.a.web.replace: start-first refused: the cutover waits for the new copy's health check",
    })
    void startFirstIsRefusedWhereTwoCopiesCannotRunSideBySide(String name, String fields, String expected) {
        String yaml = HEAD + fields.substring(1, fields.length() - 1).replace("\\n", "\n") + "    replace: start-first\n";
        InvalidInput refused = assertThrows(InvalidInput.class, () -> ManifestYaml.parse("bad.yaml", yaml), name);
        assertTrue(refused.problems().stream().anyMatch(p -> p.contains("bad.yaml:" + expected)),
                "expected " + expected + ", got " + refused.problems());
    }

    @Test
    void aWordOtherThanTheTwoIsRefusedNamingThem() {
        InvalidInput refused = assertThrows(InvalidInput.class,
                () -> ManifestYaml.parse("bad.yaml", HEAD + HEALTHY + "    replace: rolling\n"));
        assertEquals(List.of("bad.yaml:7:14: components.a.web.replace: must be start-first (cut over: the new container"
                + " starts beside the old) or stop-first (the default), got \"rolling\""), refused.problems());
    }
}
