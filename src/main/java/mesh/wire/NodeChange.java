package mesh.wire;

/**
 * NodeChange is the body of {@code PUT /v1/mesh/nodes/{name}} ({@code mesh node set}): the fields to
 * change; a field left out (null) keeps its value.
 */
public record NodeChange(String address, String agent) {
}
