package mesh.wire;

/** FenceLifted answers {@code DELETE /v1/fences/{module}}: whether a fence stood and was lifted. */
public record FenceLifted(String module, boolean lifted) {
}
