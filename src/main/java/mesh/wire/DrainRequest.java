package mesh.wire;

import java.util.List;

/** DrainRequest is {@code POST /v1/mesh/drains}: the node to empty, where to (empty: any not cordoned), K, a deadline and a dry run. */
public record DrainRequest(String node, List<String> to, Integer parallel, String deadline, Boolean dryRun) {
}
