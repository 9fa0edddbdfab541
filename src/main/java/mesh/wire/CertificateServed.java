package mesh.wire;

/** CertificateServed is what a server serves after a rotation: its certificate's serial (hex) and expiry (an instant). */
public record CertificateServed(String serial, String notAfter) {
}
