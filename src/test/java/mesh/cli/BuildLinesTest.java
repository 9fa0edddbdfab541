package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import mesh.wire.Build;
import org.junit.jupiter.api.Test;

class BuildLinesTest {

    static final String A = new Build("0.2.0", "7200bac816ba").words();
    static final String B = new Build("0.1.0", "4f70c7e1a2b3").words();

    @Test
    void aCellIsTheBuildsWordsOrADashWhenNotKnown() {
        assertEquals("0.2.0 (7200bac816ba)", BuildLines.cell(new Build("0.2.0", "7200bac816ba")));
        assertEquals("0.2.0", BuildLines.cell(new Build("0.2.0", null)));
        assertEquals("-", BuildLines.cell(null));
    }

    @Test
    void oneBuildEverywhereOrNothingKnownWarnsOfNothing() {
        assertEquals(Optional.empty(), BuildLines.mix(A, Map.of("n1", A, "n2", A)));
        assertEquals(Optional.empty(), BuildLines.mix(null, Map.of("n1", A)));
        assertEquals(Optional.empty(), BuildLines.mix(A, Map.of()));
        assertEquals(Optional.empty(), BuildLines.mix(null, Map.of()));
    }

    @Test
    void aMixNamesEachBuildWithItsPartsTheControllerFirst() {
        Map<String, String> agents = new LinkedHashMap<>();
        agents.put("n1", A);
        agents.put("n2", B);
        agents.put("n3", A);
        assertEquals(Optional.of("warning: this mesh runs 2 builds: the controller, n1, n3 on 0.2.0 (7200bac816ba); "
                + "n2 on 0.1.0 (4f70c7e1a2b3). Parts of one mesh are meant to run one build: install the same build on "
                + "every node."), BuildLines.mix(A, agents));
    }

    @Test
    void aControllerApartFromItsAgentsAndAnAgentTooOldToSayAreAMix() {
        assertEquals(Optional.of("warning: this mesh runs 2 builds: the controller on 0.2.0 (7200bac816ba); n1 on 0.1.0 "
                + "(4f70c7e1a2b3). Parts of one mesh are meant to run one build: install the same build on every node."),
                BuildLines.mix(A, Map.of("n1", B)));
        assertEquals(Optional.of("warning: this mesh runs 2 builds: the controller on 0.2.0 (7200bac816ba); n1 on "
                + BuildLines.TOO_OLD + ". Parts of one mesh are meant to run one build: install the same build on every node."),
                BuildLines.mix(A, Map.of("n1", BuildLines.TOO_OLD)));
    }
}
