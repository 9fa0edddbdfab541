package mesh.wire;

/**
 * ScraperCertificate is the controller's answer to a {@link ScraperRequest}: the certificate ({@code CN=mesh metrics},
 * client use only, the mesh CA after it, PEM), the mesh CA (PEM), its serial and when it expires (an instant). It
 * opens {@code /metrics} on the controller and every agent, and nothing else (docs/metrics.md).
 */
public record ScraperCertificate(String certificate, String ca, String serial, String notAfter) {
}
