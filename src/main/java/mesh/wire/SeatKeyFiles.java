package mesh.wire;

import java.util.Map;

/**
 * SeatKeyFiles is the body of {@code PUT /v1/seat/keys} (docs/seat.md): the seat's keys ({@link mesh.plan.SeatKeys}),
 * each file's content in base64 by its path under the state folder. It travels only over the mesh's mutual TLS, from
 * the seat's controller to the standby's agent.
 */
public record SeatKeyFiles(Map<String, String> files) {
}
