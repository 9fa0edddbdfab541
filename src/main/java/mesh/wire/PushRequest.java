package mesh.wire;

import java.util.List;

/** PushRequest is the body of {@code POST /v1/mesh/push}; null fields mean none, false and false. */
public record PushRequest(List<String> nodes, Boolean dryRun, Boolean yes) {
}
