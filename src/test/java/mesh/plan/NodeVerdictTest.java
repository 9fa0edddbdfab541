package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import mesh.model.ComponentState;
import mesh.plan.NodeVerdict.Agent;
import mesh.plan.NodeVerdict.Component;
import mesh.plan.NodeVerdict.Stored;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** NodeVerdictTest: the rule of `mesh status` as a table, one row per thing an operator must know first. */
class NodeVerdictTest {

    static final Component RUNS = new Component("a", ComponentState.RUNNING, null, null);
    static final Component STOPPED = new Component("b", ComponentState.STOPPED, null, null);
    static final Component BROKEN = new Component("b", ComponentState.FAILING, "image not found", null);
    static final Component LOOPING = new Component("c", ComponentState.CRASH_LOOPING, null, "exited 1");

    static Agent agent(long generation, long applied, boolean converged, Component... components) {
        return new Agent(generation, applied, converged, null, List.of(components), null);
    }

    static Stream<Arguments> table() {
        Stored three = new Stored(3, 3, null);
        return Stream.of(
                Arguments.of("all runs", three, agent(3, 3, true, RUNS), null, "ok: up to date"),
                Arguments.of("no answer", three, null, "did not answer (timed out)", "attention: did not answer (timed out)"),
                Arguments.of("left behind", new Stored(4, 3, "refused (401)"), agent(3, 3, true), null, "attention: behind: refused (401)"),
                Arguments.of("never pushed", new Stored(0, 0, null), agent(0, 0, false), null, "ok: never pushed"),
                Arguments.of("agent newer", three, agent(4, 4, true), null, "attention: its agent holds generation 4, newer than"
                        + " the 3 it acknowledged: 'mesh push' sends its declaration again"),
                Arguments.of("agent older", three, agent(0, 0, false), null, "attention: its agent holds generation 0, older than"
                        + " the 3 it acknowledged: 'mesh push' sends its declaration again"),
                Arguments.of("engine down", three, new Agent(3, 3, false, "connection refused", List.of(RUNS), null), null,
                        "attention: its engine does not answer: connection refused"),
                Arguments.of("not acknowledged", new Stored(4, 3, null), agent(3, 3, true), null,
                        "attention: behind: generation 4 was not acknowledged"),
                Arguments.of("failing", three, agent(3, 3, true, RUNS, BROKEN, LOOPING), null,
                        "attention: failing: b (image not found), c (crash-looping: exited 1)"),
                Arguments.of("edge refused", three, new Agent(3, 3, true, null, List.of(RUNS), "Caddy refused the routes: x"), null,
                        "attention: edge failing: Caddy refused the routes: x"),
                Arguments.of("failing before edge", three, new Agent(3, 3, true, null, List.of(BROKEN), "refused"), null,
                        "attention: failing: b (image not found)"),
                Arguments.of("not converged", three, agent(3, 2, false), null, "attention: converging"),
                Arguments.of("stopped", three, agent(3, 3, true, RUNS, STOPPED), null, "attention: converging: b (stopped)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void theFirstThingToKnow(String name, Stored stored, Agent agent, String agentError, String expected) {
        NodeVerdict.Verdict v = NodeVerdict.of(stored, agent, agentError);
        assertEquals(expected, (v.ok() ? "ok: " : "attention: ") + v.words());
    }
}
