package mesh.wire;

/**
 * VolumeCopyRequest is the body of {@code POST /v1/volumes/{module}/{volume}/copy} (docs/take.md): the take's
 * epoch, the volume's kind ({@code container|process}), the source agent's base URL and its read ticket; for a
 * take's pass, {@code live} (the module runs on the source: a pre-copy pass, read with a pre-copy ticket),
 * {@code delta} (send only what differs from this take's copy here) and {@code since} (the source's clock when the
 * previous pass began, ms; 0: none).
 */
public record VolumeCopyRequest(long epoch, String kind, String from, String ticket, Boolean live, Boolean delta,
                                Long since) {

    public VolumeCopyRequest(long epoch, String kind, String from, String ticket) {
        this(epoch, kind, from, ticket, null, null, null);
    }
}
