package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DrainCheckTest {

    static final Set<String> NODES = Set.of("n1", "n2", "n3", "n4");

    @ParameterizedTest(name = "drain {0} --to {1} --parallel {2}: {3}")
    @CsvSource(delimiter = '|', value = {
        "n2 | n3;n4 | 2 | ",
        "n2 |       | 1 | ",
        "n2 | n3    | 8 | ",
        "n9 | n3    | 1 | unknown node n9; 'mesh node list' shows the nodes",
        "n2 | n2    | 1 | --to n2: a drain moves modules off n2, not onto it",
        "n2 | n7    | 1 | --to n7: unknown node; 'mesh node list' shows the nodes",
        "n2 | n1    | 1 | --to n1: node n1 is cordoned ('mesh node uncordon n1' lifts it)",
        "n2 | n3    | 0 | --parallel 0: K is 1 to 8 takes at once",
        "n2 | n3    | 9 | --parallel 9: K is 1 to 8 takes at once",
        "n2 | n2;n1 | 9 | --to n2: a drain moves modules off n2, not onto it&--to n1: node n1 is cordoned ('mesh node uncordon n1' lifts it)&--parallel 9: K is 1 to 8 takes at once",
    })
    void badInputIsNamedBeforeAnythingMoves(String node, String to, int k, String expected) {
        List<String> targets = to == null ? List.of() : Arrays.asList(to.split(";"));
        assertEquals(expected == null ? List.of() : Arrays.asList(expected.split("&")),
                DrainCheck.problems(node, targets, k, NODES, Set.of("n1")));
    }
}
