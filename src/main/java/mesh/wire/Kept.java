package mesh.wire;

import mesh.model.PushOrigin;

/**
 * Kept is one entry of the agent's {@code GET /v1/declarations}: a generation it accepted and
 * keeps, and where it came from: the push that sent it ({@code push}: its audit id and operator,
 * docs/trust.md), or the file {@code mesh host apply} read it from on the node ({@code file}).
 * Both are null in a record kept by an older mesh.
 */
public record Kept(long generation, String receivedAt, int components, PushOrigin push, String file) {
}
