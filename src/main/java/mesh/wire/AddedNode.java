package mesh.wire;

/**
 * AddedNode is the answer to {@code node add} ({@code POST /v1/mesh/nodes}): the only time the
 * node's one-time join token is shown ({@code joinToken}, null when it got none), and when it
 * expires ({@code joinTokenExpires}, an instant).
 */
public record AddedNode(String name, String address, String agent, String joinToken, String joinTokenExpires) {
}
