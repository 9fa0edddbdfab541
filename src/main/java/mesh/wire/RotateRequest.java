package mesh.wire;

import java.util.List;

/** RotateRequest asks the controller to reissue certificates ({@code mesh ca rotate-certs}): of these nodes only, or, empty, of every node and the controller. */
public record RotateRequest(List<String> nodes) {
    public RotateRequest {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }
}
