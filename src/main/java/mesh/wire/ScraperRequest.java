package mesh.wire;

/**
 * ScraperRequest asks the controller for the mesh's scraper certificate ({@code POST /v1/mesh/metrics/scraper},
 * {@code mesh metrics scrape-config}): the public half of the key the operator's machine made (PEM). The private
 * key stays there, beside the Prometheus that uses it.
 */
public record ScraperRequest(String publicKey) {
}
