package mesh.wire;

/**
 * NodeToken is the answer to {@code mesh node token NAME --rotate}
 * ({@code POST /v1/mesh/nodes/{name}/token}): the node's new agent token, shown this once.
 */
public record NodeToken(String name, String token) {
}
