package mesh.wire;

/**
 * VolumeCopyRequest is the body of {@code POST /v1/volumes/{module}/{volume}/copy} (docs/take.md): the take's
 * epoch, the volume's kind ({@code container|process}), the source agent's base URL and its read ticket.
 */
public record VolumeCopyRequest(long epoch, String kind, String from, String ticket) {
}
