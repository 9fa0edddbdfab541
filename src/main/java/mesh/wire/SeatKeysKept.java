package mesh.wire;

import java.util.List;

/** SeatKeysKept is a standby's answer to {@code PUT /v1/seat/keys}: its node, and the files it wrote (0600). */
public record SeatKeysKept(String node, List<String> files) {
}
