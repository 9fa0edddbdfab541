package mesh.wire;

/**
 * NewNode is the body of {@code POST /v1/mesh/nodes}. {@code token} is optional: the node's agent
 * token when the agent already runs with one ({@code mesh install} seats its own node so, and
 * {@code mesh node add --token}); absent, the controller makes one.
 */
public record NewNode(String name, String address, String agent, String token) {
}
