package mesh.wire;

/**
 * NewNode is the body of {@code POST /v1/mesh/nodes}. {@code withJoinToken} is optional: absent or
 * true, the node gets a one-time join token for {@code mesh install --join}; false, none
 * ({@code mesh install} seats its own node so: the seat issues its certificate itself).
 */
public record NewNode(String name, String address, String agent, Boolean withJoinToken) {
}
