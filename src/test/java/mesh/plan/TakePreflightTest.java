package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** TakePreflightTest: a preflight with nothing missing passes; each missing image, bundle or byte is named, all at once. */
class TakePreflightTest {

    static final List<Take.Volume> DATA = List.of(new Take.Volume("data", "container", 1_000_000, 10, false, null, null),
            new Take.Volume("work", "process", 1_000_000, 5, false, null, null));

    static TakePreflight.Facts facts(Map<String, String> images, Map<String, String> bundles, long free) {
        return new TakePreflight.Facts("web", "n1", "n2", images, bundles, DATA, free, "/var/lib/docker");
    }

    @Test
    void nothingMissingAndRoomEnoughPasses() {
        assertNull(TakePreflight.refusal(facts(Map.of(), Map.of(), 2_200_000)));
        assertEquals(List.of(), TakePreflight.problems(facts(Map.of(), Map.of(), 2_200_000)));
    }

    @Test
    void theDataNeedsItsSizeAndATenth() {
        assertEquals(2_200_000, TakePreflight.need(DATA));
        String refusal = TakePreflight.refusal(facts(Map.of(), Map.of(), 2_199_999));
        assertEquals("node n2 has 2.2 MB free at /var/lib/docker, and the module's data needs 2.2 MB (its size and a tenth);"
                + " nothing was fenced, web runs on n1 as it did", refusal);
    }

    @Test
    void aMissingBundleIsNamedWithWhy() {
        String refusal = TakePreflight.refusal(facts(Map.of(), Map.of("it/web@sha256:ab", "manifest unknown"), 10_000_000));
        assertEquals("node n2 lacks bundle it/web@sha256:ab of module web (manifest unknown); nothing was fenced, web runs on n1"
                + " as it did", refusal);
    }

    @Test
    void everyProblemIsNamedInOrderImagesBundlesSpace() {
        List<String> problems = TakePreflight.problems(facts(Map.of("b:1", "pull failed", "a:1", "pull failed"),
                Map.of("it/web@sha256:ab", "unreachable"), 100));
        assertEquals(4, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("node n2 lacks image a:1 of module web"), problems.toString());
        assertTrue(problems.get(1).startsWith("node n2 lacks image b:1 of module web"), problems.toString());
        assertTrue(problems.get(2).startsWith("node n2 lacks bundle it/web@sha256:ab"), problems.toString());
        assertTrue(problems.get(3).startsWith("node n2 has 100 B free at /var/lib/docker"), problems.toString());
    }

    @Test
    void aModuleThatRunsNowhereOrHasNoDataIsNotRefusedForSpace() {
        TakePreflight.Facts nowhere = new TakePreflight.Facts("web", null, "n2", Map.of(), Map.of(), List.of(), -1, null);
        assertNull(TakePreflight.refusal(nowhere));
        TakePreflight.Facts missing = new TakePreflight.Facts("web", null, "n2", Map.of(), Map.of("it/web@sha256:ab", "gone"),
                List.of(), -1, null);
        assertTrue(TakePreflight.refusal(missing).endsWith("nothing was fenced, web runs nowhere yet"), TakePreflight.refusal(missing));
    }
}
