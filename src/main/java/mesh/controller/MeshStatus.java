package mesh.controller;

import mesh.model.ComponentState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.model.Node;
import mesh.store.MeshStore;
import mesh.wire.HostStatus;
import mesh.wire.NodeStatus;
import mesh.wire.NodeView;

/**
 * MeshStatus is {@code mesh status}: each node as the store knows it (sent, acknowledged) beside
 * what its agent says now (applied, converged, each component's state). The store is read in one
 * transaction and closed before any agent is asked, so a slow agent holds no connection; every
 * agent is asked at once and briefly, and one that does not answer is reported, not waited for. Each
 * node carries the takes under way that involve it ({@link mesh.wire.NodeTake}), so {@code -o json} shows them.
 */
@ApplicationScoped
public class MeshStatus {

    @Inject
    MeshStore store;

    @Inject
    MeshController controller;

    @Inject
    MeshTake takes;

    @Inject
    BackupStatuses backups;

    AgentClient agents = new AgentClient();

    public List<NodeStatus> status() {
        return status(false);
    }

    /** Each node's status; with {@code refresh}, each agent looks at its engine before it answers. */
    public List<NodeStatus> status(boolean refresh) {
        List<NodeView> views = store.inTransaction(controller::nodes);
        Map<String, Node> asked = new LinkedHashMap<>();
        views.forEach(v -> asked.put(v.name(), new Node(v.name(), v.address(), v.agent(), v.publicDomain())));
        Map<String, Object> answers = AgentClient.askAll(asked, n -> refresh
                ? agents.statusRefreshed(n) : agents.statusQuickly(n));
        List<mesh.wire.TakeView> underWay = takes.running();
        List<mesh.wire.BackupStatus> backedUp = backups.all(java.time.Instant.now());
        List<NodeStatus> result = new ArrayList<>();
        for (NodeView view : views) {
            Object answer = answers.get(view.name());
            result.add((answer instanceof HostStatus agent ? verdict(view, agent, null) : verdict(view, null, (String) answer))
                    .withTakes(underWay).withBackups(backedUp));
        }
        return result;
    }

    /** The first thing an operator must know about the node, and whether it is all well. */
    static NodeStatus verdict(NodeView n, HostStatus agent, String agentError) {
        if (agent == null) {
            return new NodeStatus(n, null, agentError, false, agentError);
        }
        if (n.lastError() != null) {
            return new NodeStatus(n, agent, null, false, "behind: " + n.lastError());
        }
        if (agent.generation() != n.ackedGeneration()) {
            return new NodeStatus(n, agent, null, false, "its agent holds generation " + agent.generation() + ", "
                    + (agent.generation() < n.ackedGeneration() ? "older" : "newer") + " than the "
                    + n.ackedGeneration() + " it acknowledged: 'mesh push' sends its declaration again");
        }
        if (n.ackedGeneration() == 0) {
            return new NodeStatus(n, agent, null, true, "never pushed");
        }
        if (agent.engineError() != null) {
            return new NodeStatus(n, agent, null, false, "its engine does not answer: " + agent.engineError());
        }
        if (n.generation() > n.ackedGeneration()) {
            return new NodeStatus(n, agent, null, false, "behind: generation " + n.generation() + " was not acknowledged");
        }
        List<String> failing = agent.components().stream().filter(c -> c.error() != null || failed(c.state()))
                .map(c -> c.name() + " (" + (c.error() != null ? c.error()
                        : c.state() + (c.reason() == null ? "" : ": " + c.reason())) + ")").toList();
        if (!failing.isEmpty()) {
            return new NodeStatus(n, agent, null, false, "failing: " + String.join(", ", failing));
        }
        if (agent.edge() != null && agent.edge().refused()) {
            return new NodeStatus(n, agent, null, false, "edge failing: " + agent.edge().error());
        }
        List<String> notRunning = agent.components().stream().filter(c -> c.state() != ComponentState.RUNNING)
                .map(c -> c.name() + " (" + c.state() + (c.reason() == null ? "" : ": " + c.reason()) + ")").toList();
        if (!agent.converged() || agent.appliedGeneration() < agent.generation() || !notRunning.isEmpty()) {
            return new NodeStatus(n, agent, null, false,
                    "converging" + (notRunning.isEmpty() ? "" : ": " + String.join(", ", notRunning)));
        }
        return new NodeStatus(n, agent, null, true, "up to date");
    }

    /** A state that waiting alone does not end: the operator must look. */
    static boolean failed(ComponentState state) {
        return state == ComponentState.FAILING || state == ComponentState.CRASH_LOOPING
                || state == ComponentState.UNHEALTHY;
    }
}
