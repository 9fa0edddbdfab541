package mesh.wire;

/** NodeView is a node as {@code node list} ({@code GET /v1/mesh/nodes}) shows it, with where its pushes stand. */
public record NodeView(String name, String address, String agent, String publicDomain, long generation,
                       long ackedGeneration, String lastError) {
}
