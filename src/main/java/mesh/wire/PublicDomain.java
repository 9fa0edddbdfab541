package mesh.wire;

/** PublicDomain is the body of {@code PUT /v1/mesh/nodes/{name}/public-domain}. */
public record PublicDomain(String domain) {
}
