package mesh.wire;

import java.util.List;

/**
 * StandbyAdded is the answer to {@code POST /v1/mesh/seats/{node}} ({@code mesh seat add}): the standby, the URL its
 * controller answers at once promoted (for the operator's {@code MESH_CONTROLLER}), and what was done, in order.
 */
public record StandbyAdded(String node, String url, List<String> done) {
}
