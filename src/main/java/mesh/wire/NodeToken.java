package mesh.wire;

/**
 * NodeToken is the answer to {@code mesh node token NAME --rotate}
 * ({@code POST /v1/mesh/nodes/{name}/token}): the node's new one-time join token, shown this once,
 * and when it expires (an instant).
 */
public record NodeToken(String name, String address, String joinToken, String joinTokenExpires) {
}
