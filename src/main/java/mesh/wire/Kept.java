package mesh.wire;

/** Kept is one entry of the agent's {@code GET /v1/declarations}: a generation it accepted and keeps. */
public record Kept(long generation, String receivedAt, int components) {
}
