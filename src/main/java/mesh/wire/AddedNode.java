package mesh.wire;

/** AddedNode is the answer to {@code node add} ({@code POST /v1/mesh/nodes}): the only time the agent token is shown. */
public record AddedNode(String name, String address, String agent, String token) {
}
