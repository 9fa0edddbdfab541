package mesh.wire;

/** NewNode is the body of {@code POST /v1/mesh/nodes}. */
public record NewNode(String name, String address, String agent) {
}
