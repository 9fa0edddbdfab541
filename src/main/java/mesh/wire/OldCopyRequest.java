package mesh.wire;

import java.util.List;

/** OldCopyRequest is the body of {@code POST /v1/volumes/{module}/old-copy}: these volumes are the copy the take at {@code epoch} left here. */
public record OldCopyRequest(long epoch, List<String> volumes) {
}
