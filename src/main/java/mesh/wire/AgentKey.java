package mesh.wire;

/**
 * AgentKey is an agent's new public key (PEM), made for a rotation ({@code POST /v1/tls/key}): the
 * agent keeps the private half, pending, until the controller sends the certificate for it.
 */
public record AgentKey(String publicKey) {
}
