package mesh.wire;

/** AgentCertificate is the certificate the controller issued for an agent's pending key (PEM, the CA after it; {@code PUT /v1/tls/certificate}). */
public record AgentCertificate(String certificate) {
}
