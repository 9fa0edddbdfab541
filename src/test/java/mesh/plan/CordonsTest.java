package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CordonsTest {

    @ParameterizedTest(name = "{0} onto {1}, already there {2}, cordoned {3}: refused {4}")
    @CsvSource({
        "assign, n2, false, n2, true",
        "take,   n2, false, n2, true",
        "restore,n2, false, n2;n3, true",
        "assign, n2, true,  n2, false",
        "take,   n3, false, n2, false",
        "take,   n3, false, '', false",
    })
    void nothingNewGoesOntoACordonedNode(String verb, String node, boolean already, String cordoned, boolean refused) {
        Set<String> nodes = cordoned.isBlank() ? Set.of() : Set.of(cordoned.split(";"));
        var why = Cordons.refusal(verb, "web", node, already, nodes);
        assertEquals(refused, why.isPresent());
        why.ifPresent(w -> assertEquals(verb + " of module web onto node " + node + " refused: node " + node
                + " is cordoned (no new work goes onto it; 'mesh node uncordon " + node + "' lifts it)", w));
    }
}
