package mesh.wire;

import java.util.List;

/**
 * NodeStatus is one node of {@code mesh status} ({@code GET /v1/mesh/status}): the store's view, the
 * agent's answer (or why there is none), whether all is well, the first thing to know, in words, and
 * the takes under way that move a module off or onto this node, with their step, and the backups of the modules
 * that run on it, and on the node that runs the artifact store, where its content exists ({@link ArtifactStoreView}, null
 * on every other node).
 */
public record NodeStatus(NodeView node, HostStatus agent, String agentError, boolean ok, String state, List<NodeTake> takes,
                         List<BackupStatus> backups, ArtifactStoreView artifactStore) {

    public NodeStatus {
        takes = takes == null ? List.of() : List.copyOf(takes);
        backups = backups == null ? List.of() : List.copyOf(backups);
    }

    public NodeStatus(NodeView node, HostStatus agent, String agentError, boolean ok, String state, List<NodeTake> takes,
                      List<BackupStatus> backups) {
        this(node, agent, agentError, ok, state, takes, backups, null);
    }

    /** This node's status with the artifact store when it runs here (docs/seat.md). */
    public NodeStatus withArtifactStore(ArtifactStoreView store) {
        return new NodeStatus(node, agent, agentError, ok, state, takes, backups,
                store != null && node.name().equals(store.node()) ? store : null);
    }

    public NodeStatus(NodeView node, HostStatus agent, String agentError, boolean ok, String state, List<NodeTake> takes) {
        this(node, agent, agentError, ok, state, takes, List.of());
    }

    /** This node's status with the backups of the modules that run on it (docs/backup.md). */
    public NodeStatus withBackups(List<BackupStatus> all) {
        String name = node.name();
        return new NodeStatus(node, agent, agentError, ok, state, takes, all.stream().filter(b -> name.equals(b.node())).toList(), artifactStore);
    }

    /** A node with no take under way. */
    public NodeStatus(NodeView node, HostStatus agent, String agentError, boolean ok, String state) {
        this(node, agent, agentError, ok, state, List.of());
    }

    /** This node's status with the takes of {@code takes} that involve it. */
    public NodeStatus withTakes(List<TakeView> takes) {
        String name = node.name();
        return new NodeStatus(node, agent, agentError, ok, state, takes.stream()
                .filter(t -> name.equals(t.from()) || name.equals(t.to())).map(t -> NodeTake.of(t, name)).toList(), backups, artifactStore);
    }
}
