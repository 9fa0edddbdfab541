package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import mesh.plan.OldCopyCleanup.Copy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** OldCopyCleanupTest: what `mesh take --forget-old` does with each old copy, as a table of copies and their steps. */
class OldCopyCleanupTest {

    static final Copy ON_N1 = new Copy("n1", 3, List.of("data", "cache"));
    static final Copy ON_N2 = new Copy("n2", 5, List.of("data"));
    static final Copy ON_GONE = new Copy("n9", 4, List.of("data"));

    /** Each step in words: "delete n1@3 data(container) cache(process)", "skip n2@5", "refuse n9@4". */
    static List<String> words(List<OldCopyCleanup.Step> steps) {
        return steps.stream().map(s -> switch (s) {
            case OldCopyCleanup.Skip k -> "skip " + k.copy().node() + "@" + k.copy().epoch();
            case OldCopyCleanup.Refuse r -> "refuse " + r.copy().node() + "@" + r.copy().epoch();
            case OldCopyCleanup.Delete d -> "delete " + d.copy().node() + "@" + d.copy().epoch() + " " + String.join(" ",
                    d.volumes().stream().map(v -> v.name() + "(" + v.kind() + ")").toList());
        }).toList();
    }

    static Stream<Arguments> table() {
        Set<String> nodes = Set.of("n1", "n2", "n3");
        return Stream.of(
                Arguments.of("each copy deleted, kinds from the manifest", List.of(ON_N1, ON_N2), nodes, "n3",
                        List.of("delete n1@3 data(container) cache(process)", "delete n2@5 data(container)")),
                Arguments.of("a copy where the module runs is passed over", List.of(ON_N1, ON_N2), nodes, "n2",
                        List.of("delete n1@3 data(container) cache(process)", "skip n2@5")),
                Arguments.of("a copy on a removed node stops the cleanup there", List.of(ON_N1, ON_GONE, ON_N2), nodes, "n3",
                        List.of("delete n1@3 data(container) cache(process)", "refuse n9@4")),
                Arguments.of("the module placed nowhere", List.of(ON_N2), nodes, null, List.of("delete n2@5 data(container)")),
                Arguments.of("no copy", List.of(), nodes, "n1", List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void stepsInTheCopiesOrder(String name, List<Copy> copies, Set<String> nodes, String runsOn, List<String> expected) {
        assertEquals(expected, words(OldCopyCleanup.steps("web", copies, nodes, runsOn, Map.of("cache", "process"))));
    }

    @org.junit.jupiter.api.Test
    void aRefusalNamesTheCopyAndItsNode() {
        OldCopyCleanup.Refuse r = (OldCopyCleanup.Refuse) OldCopyCleanup.steps("web", List.of(ON_GONE), Set.of("n1"), "n1",
                Map.of()).get(0);
        assertEquals("the old copy of module web left at epoch 4 is on node n9, which is no longer a node; nothing was"
                + " removed there", r.why());
    }
}
