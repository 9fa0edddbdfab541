package mesh.wire;

/**
 * OperatorToken is one named operator token as {@code mesh token list} shows it
 * ({@code GET /v1/mesh/tokens}): never the token itself, only its name and dates (ISO-8601, or
 * null). {@code lastUsed} is the latest request this controller served with it since it started,
 * or its last recorded write, whichever is later.
 */
public record OperatorToken(String name, String created, String createdBy, String lastUsed, String revoked) {
}
