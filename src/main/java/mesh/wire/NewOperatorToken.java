package mesh.wire;

/**
 * NewOperatorToken is the answer to {@code mesh token create NAME} ({@code POST /v1/mesh/tokens}):
 * the token, shown this once; the controller keeps only its hash.
 */
public record NewOperatorToken(String name, String token) {
}
