package mesh.wire;

/**
 * JoinRequest is what a joining node's installer sends the controller ({@code POST /v1/join}, with
 * the node's one-time join token as bearer): its name and the public half of the key it made for its
 * agent's certificate (PEM). The private key never leaves the node.
 */
public record JoinRequest(String node, String publicKey) {
}
