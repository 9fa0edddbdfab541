package mesh.wire;

import java.util.List;

/**
 * AlertsView is {@code GET /v1/mesh/alerts}: the open alerts (firing and pending, oldest first), the ones resolved
 * in the last quarter hour (newest first), and the receivers they are posted to.
 */
public record AlertsView(List<AlertView> alerts, List<AlertView> resolved, List<AlertReceiver> receivers) {

    public AlertsView {
        alerts = alerts == null ? List.of() : List.copyOf(alerts);
        resolved = resolved == null ? List.of() : List.copyOf(resolved);
        receivers = receivers == null ? List.of() : List.copyOf(receivers);
    }
}
