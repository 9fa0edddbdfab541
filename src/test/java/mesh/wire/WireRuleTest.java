package mesh.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WireRuleTest {

    private static Build at(Integer level) {
        return new Build("0.1.0", "4f70c7e1a2b3", level);
    }

    /** The table: a controller at L speaks to agents at L and L + 1 only; no level is level 1. */
    @ParameterizedTest(name = "controller {0}, agent {1}: {2}")
    @CsvSource(nullValues = "none", value = {
        "1, 1, true", "1, 2, true", "1, 3, false",
        "2, 1, false", "2, 2, true", "2, 3, true", "2, 4, false",
        "5, 4, false", "5, 6, true", "5, 7, false",
        "none, none, true", "none, 1, true", "none, 2, true", "1, none, true", "2, none, false", "none, 3, false",
    })
    void aControllerAtLSpeaksToAgentsAtLAndLPlusOne(Integer controller, Integer agent, boolean speaks) {
        assertEquals(speaks, WireRule.speaks(at(controller), at(agent)));
        assertEquals(!speaks, WireRule.heldBack("n2", at(controller), at(agent)).isPresent());
    }

    @Test
    void anOlderAgentIsToldToBeMovedWithThisBuild() {
        String m = WireRule.heldBack("n2", new Build("0.3.0", "7200bac816ba", 3), new Build("0.1.0", "4f70c7e1a2b3")).orElseThrow();
        assertEquals("node n2's agent runs mesh 0.1.0 (4f70c7e1a2b3) (wire level 1); this controller runs mesh 0.3.0 (7200bac816ba)"
                + " (wire level 3) and speaks only to agents at levels 3 and 4, so its declaration was not sent (the other nodes'"
                + " were): the agent is older than the controller; run `mesh upgrade --node n2` with this controller's build to"
                + " move it", m);
    }

    @Test
    void aNewerAgentNamesItsBuildForTheRestOfTheMesh() {
        String m = WireRule.heldBack("g14", at(1), new Build("0.4.0", null, 3)).orElseThrow();
        assertTrue(m.endsWith("the agent is newer than the controller can follow; run `mesh upgrade` with node g14's build"
                + " (mesh 0.4.0) to move the other agents and the controller to it"), m);
    }
}
