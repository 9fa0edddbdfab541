package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.model.Node;
import mesh.plan.ArtifactStoreCopies;
import mesh.plan.MeshPlanner;
import mesh.plan.NodeVerdict;
import mesh.store.MeshStore;
import mesh.store.StandbyRecords;
import mesh.wire.ArtifactStoreView;
import mesh.wire.BackupStatus;
import mesh.wire.HostStatus;
import mesh.wire.NodeStatus;
import mesh.wire.NodeView;
import mesh.wire.TakeView;

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

    @Inject
    AgentClient agents;

    @Inject
    HeardBuilds heardBuilds;

    @Inject
    StandbyWatch watch;

    public List<NodeStatus> status() {
        return status(false);
    }

    /** Each node's status; with {@code refresh}, each agent looks at its engine before it answers. */
    public List<NodeStatus> status(boolean refresh) {
        List<NodeView> views = store.inTransaction(controller::nodes);
        Map<String, Node> asked = new LinkedHashMap<>();
        views.forEach(v -> asked.put(v.name(), new Node(v.name(), v.address(), v.agent(), v.publicDomain())));
        Map<String, AgentAnswer<HostStatus>> answers = AgentClient.askAll(asked, n -> refresh
                ? agents.statusRefreshed(n) : agents.statusQuickly(n));
        heardBuilds.note(answers);
        List<TakeView> underWay = takes.running();
        List<BackupStatus> backedUp = backups.all(Instant.now());
        ArtifactStoreView artifacts = artifactStore(List.copyOf(asked.values()));
        List<NodeStatus> result = new ArrayList<>();
        for (NodeView view : views) {
            AgentAnswer<HostStatus> answer = answers.get(view.name());
            result.add(verdict(view, answer.value(), answer.failure()).withTakes(underWay).withBackups(backedUp).withArtifactStore(artifacts));
        }
        return result;
    }

    /** Where the artifact store runs and whether its content exists anywhere else ({@link ArtifactStoreCopies}); null when nowhere. */
    ArtifactStoreView artifactStore(List<Node> nodes) {
        List<String> standbys = watch.standbys().stream().map(StandbyRecords.Row::node).toList();
        return ArtifactStoreCopies.of(nodes, store.inTransaction(store::placements), standbys)
                .map(w -> new ArtifactStoreView(MeshPlanner.REGISTRY_MODULE, w.node(), w.url(), w.copiedTo(), w.standbys(), w.words()))
                .orElse(null);
    }

    /** The first thing an operator must know about the node, and whether it is all well ({@link NodeVerdict}). */
    static NodeStatus verdict(NodeView n, HostStatus agent, String agentError) {
        NodeVerdict.Verdict v = NodeVerdict.of(new NodeVerdict.Stored(n.generation(), n.ackedGeneration(), n.lastError()),
                agent == null ? null : new NodeVerdict.Agent(agent.generation(), agent.appliedGeneration(), agent.converged(),
                        agent.engineError(), agent.components().stream().map(c -> new NodeVerdict.Component(c.name(),
                                c.state(), c.error(), c.reason())).toList(),
                        agent.edge() != null && agent.edge().refused() ? agent.edge().error() : null),
                agentError);
        return new NodeStatus(n, agent, agent == null ? agentError : null, v.ok(), v.words());
    }
}
