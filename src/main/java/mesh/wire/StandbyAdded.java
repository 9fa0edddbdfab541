package mesh.wire;

import java.util.List;

/** StandbyAdded is the answer to {@code POST /v1/mesh/seats/{node}} ({@code mesh seat add}): the standby and what was done, in order. */
public record StandbyAdded(String node, List<String> done) {
}
