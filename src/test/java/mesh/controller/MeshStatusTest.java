package mesh.controller;

import mesh.model.ComponentState;
import mesh.wire.NodeStatus;
import mesh.wire.NodeView;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.wire.HostStatus;
import org.junit.jupiter.api.Test;

/** MeshStatusTest: the verdict `mesh status` gives a node, from the store's view and its agent's answer. */
class MeshStatusTest {

    static NodeView node(long sent, long acked, String lastError) {
        return new NodeView("ace", "10.77.0.13", "http://10.77.0.13:7701", null, sent, acked, lastError);
    }

    static HostStatus agent(long generation, long applied, boolean converged, HostStatus.Component... components) {
        return new HostStatus("ace", generation, applied, converged, null, null, List.of(components));
    }

    static HostStatus engineDown(long generation, String why, HostStatus.Component... components) {
        return new HostStatus("ace", generation, generation, false, null, why, List.of(components));
    }

    static HostStatus.Component component(String name, String state, String error) {
        return new HostStatus.Component(name, "m", ComponentState.valueOf(state.toUpperCase(java.util.Locale.ROOT)), "v1:x", "id", error);
    }

    static String verdict(NodeView n, HostStatus a, String error) {
        NodeStatus s = MeshStatus.verdict(n, a, error);
        return (s.ok() ? "ok: " : "attention: ") + s.state();
    }

    @Test
    void upToDateOnlyWhenAcknowledgedAppliedAndEverythingRuns() {
        assertEquals("ok: up to date", verdict(node(3, 3, null),
                agent(3, 3, true, component("a", "running", null), component("b", "running", null)), null));
    }

    @Test
    void eachProblemIsNamedFirstThingsFirst() {
        String unreachable = "node ace's agent at http://10.77.0.13:7701 did not answer (HttpConnectTimeoutException)";
        assertEquals("attention: " + unreachable, verdict(node(3, 3, null), null, unreachable));
        assertEquals("attention: behind: refused (401)", verdict(node(4, 3, "refused (401)"), agent(3, 3, true), null));
        assertEquals("ok: never pushed", verdict(node(0, 0, null), agent(0, 0, false), null));
        assertEquals("attention: its agent holds generation 2, newer than the 0 it acknowledged: 'mesh push' sends its "
                + "declaration again", verdict(node(0, 0, null), agent(2, 2, true, component("a", "running", null)), null));
        assertEquals("attention: its agent holds generation 0, older than the 3 it acknowledged: 'mesh push' sends its "
                + "declaration again", verdict(node(3, 3, null), agent(0, 0, false), null));
        assertEquals("attention: its agent holds generation 4, newer than the 3 it acknowledged: 'mesh push' sends its "
                + "declaration again", verdict(node(3, 3, null), agent(4, 4, true), null));
        assertEquals("attention: behind: generation 4 was not acknowledged", verdict(node(4, 3, null), agent(3, 3, true), null));
        assertEquals("attention: its engine does not answer: connection refused", verdict(node(3, 3, null),
                engineDown(3, "connection refused", component("a", "running", null)), null));
        assertEquals("attention: failing: b (image not found)", verdict(node(3, 3, null),
                agent(3, 3, false, component("a", "running", null), component("b", "missing", "image not found")), null));
        assertEquals("attention: converging: b (outdated)", verdict(node(3, 3, null),
                agent(3, 2, false, component("a", "running", null), component("b", "outdated", null)), null));
        assertEquals("attention: converging", verdict(node(3, 3, null), agent(3, 2, false), null));
        assertEquals("attention: converging: a (stopped)", verdict(node(3, 3, null),
                agent(3, 3, true, component("a", "stopped", null)), null));
    }

    /** An edge Caddy refused is named with Caddy's message; an edge not answering yet is not (it may be starting). */
    @Test
    void aRefusedEdgeNeedsAttentionAndAnEdgeNotAnsweringYetDoesNot() {
        HostStatus up = agent(3, 3, true, component("route-proxy.server", "running", null));
        mesh.wire.EdgeStatus refused = new mesh.wire.EdgeStatus("route-proxy.server", "id", "internal", List.of("a.zurag.be"),
                "2026-11-30T17:00:00Z", List.of("a.zurag.be", "b.zurag.be"), "Caddy refused the routes: unknown module", true);
        mesh.wire.EdgeStatus starting = new mesh.wire.EdgeStatus("route-proxy.server", "id", "internal", List.of(), null,
                List.of("a.zurag.be"), "the edge's admin API did not answer: connection refused", false);

        assertEquals("attention: edge failing: Caddy refused the routes: unknown module",
                verdict(node(3, 3, null), up.withEdge(refused), null));
        assertEquals("ok: up to date", verdict(node(3, 3, null), up.withEdge(starting), null));
    }

    /** A component that runs but is not healthy, or keeps crashing, needs attention, and its reason is shown whole. */
    @Test
    void unhealthyAndCrashLoopingComponentsAreFailingWithTheirReason() {
        HostStatus.Component unhealthy = new HostStatus.Component("web", "m", ComponentState.UNHEALTHY, "v1:x",
                "id", null, null, "health check not passing after 3s: health command exited 1", 0, null);
        HostStatus.Component looping = new HostStatus.Component("db", "m", ComponentState.CRASH_LOOPING, "v1:x",
                "id", null, null, "4 restarts, last exit code 3", 4, "exit code 3");
        HostStatus.Component starting = new HostStatus.Component("api", "m", ComponentState.STARTING, "v1:x",
                "id", null, null, "health command exited 1", 0, null);
        assertEquals("attention: failing: web (unhealthy: health check not passing after 3s: health command exited 1), "
                + "db (crash-looping: 4 restarts, last exit code 3)",
                verdict(node(3, 3, null), agent(3, 3, true, unhealthy, looping), null));
        assertEquals("attention: converging: api (starting: health command exited 1)",
                verdict(node(3, 3, null), agent(3, 3, true, starting), null));
    }
}
