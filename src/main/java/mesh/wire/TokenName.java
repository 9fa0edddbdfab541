package mesh.wire;

/** TokenName is the body of {@code POST /v1/mesh/tokens}: the name of the operator token to make. */
public record TokenName(String name) {
}
