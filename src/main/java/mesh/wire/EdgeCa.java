package mesh.wire;

/**
 * EdgeCa is the root certificate of an edge node's internal CA (Caddy's {@code tls internal}), as
 * {@code mesh route ca NODE} prints it: a client of a test bed or private mesh verifies the node's
 * routes with it ({@code curl --cacert}).
 *
 * @param node the edge node
 * @param pem  the root certificate, PEM
 */
public record EdgeCa(String node, String pem) {
}
