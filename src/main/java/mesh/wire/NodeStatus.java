package mesh.wire;

/**
 * NodeStatus is one node of {@code mesh status} ({@code GET /v1/mesh/status}): the store's view, the
 * agent's answer (or why there is none), whether all is well, and the first thing to know, in words.
 */
public record NodeStatus(NodeView node, HostStatus agent, String agentError, boolean ok, String state) {
}
