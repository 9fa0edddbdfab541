package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mesh.plan.UpgradePlan.Agent;
import mesh.plan.UpgradePlan.Level;
import mesh.plan.UpgradePlan.Plan;
import org.junit.jupiter.api.Test;

class UpgradePlanTest {

    static final Level OLD = new Level("0.1.0 (aaaaaaaaaaaa)", 1);
    static final Level NEW = new Level("0.2.0 (bbbbbbbbbbbb)", 1);

    static Agent agent(String node, boolean seat, Level build, boolean current) {
        return new Agent(node, seat, build, current);
    }

    static List<String> steps(Plan p) {
        return p.steps().stream().map(s -> s.controller() ? "controller" : s.node()).toList();
    }

    static final List<Agent> MESH = List.of(agent("n1", true, OLD, false), agent("g14", false, OLD, false), agent("ace", false, OLD, false));

    @Test
    void theJoinedNodesByNameThenTheSeatThenTheController() {
        Plan p = UpgradePlan.plan(NEW, OLD, false, MESH, List.of());
        assertNull(p.refusal());
        assertEquals(List.of("ace", "g14", "n1", "controller"), steps(p));
    }

    @Test
    void nodesAlreadyOnTheBuildAreSkippedSoARerunCarriesOn() {
        Plan p = UpgradePlan.plan(NEW, OLD, false, List.of(agent("n1", true, OLD, false), agent("g14", false, NEW, true),
                agent("ace", false, NEW, true)), List.of());
        assertEquals(List.of("n1", "controller"), steps(p));
        assertEquals(List.of("ace", "g14"), p.already());
        Plan done = UpgradePlan.plan(NEW, NEW, true, List.of(agent("n1", true, NEW, true)), List.of());
        assertEquals(List.of(), steps(done));
        assertTrue(done.controllerAlready());
    }

    @Test
    void namedNodesAloneAndNeverTheController() {
        assertEquals(List.of("g14"), steps(UpgradePlan.plan(NEW, OLD, false, MESH, List.of("g14"))));
        Plan unknown = UpgradePlan.plan(NEW, OLD, false, MESH, List.of("g15"));
        assertEquals("no node g15 in this mesh (it has ace, g14, n1)", unknown.refusal());
        assertEquals(List.of(), unknown.steps());
    }

    @Test
    void anAgentThatDoesNotAnswerRefusesTheUpgradeUnlessTheOthersAreNamed() {
        List<Agent> mesh = List.of(agent("n1", true, OLD, false), agent("g14", false, null, false), agent("ace", false, OLD, false));
        assertTrue(UpgradePlan.plan(NEW, OLD, false, mesh, List.of()).refusal().startsWith("the agent of g14 did not answer"));
        assertEquals(List.of("ace"), steps(UpgradePlan.plan(NEW, OLD, false, mesh, List.of("ace"))));
    }

    @Test
    void oneLevelUpAgentsFirstOneLevelDownTheControllerFirstFurtherRefused() {
        Level up = new Level("0.3.0", 2);
        assertEquals(List.of("ace", "g14", "n1", "controller"), steps(UpgradePlan.plan(up, OLD, false, MESH, List.of())));
        Level two = new Level("0.3.0", 2);
        List<Agent> atTwo = List.of(agent("n1", true, two, false), agent("ace", false, two, false));
        assertEquals(List.of("controller", "ace", "n1"), steps(UpgradePlan.plan(OLD, two, false, atTwo, List.of())),
                "going back: the controller first, so it still speaks to the agents not yet moved");
        Plan far = UpgradePlan.plan(new Level("0.9.0", 3), OLD, false, MESH, List.of());
        assertEquals("this build (mesh 0.9.0) is at wire level 3 and the controller (mesh 0.1.0 (aaaaaaaaaaaa)) at 1: a controller"
                + " speaks to agents at its level and the next only, so move the mesh through a build at level 2 first", far.refusal());
        assertTrue(UpgradePlan.plan(OLD, two, false, atTwo, List.of("ace")).refusal().contains("older than the controller's"));
    }
}
