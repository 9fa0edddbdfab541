package mesh.wire;

/**
 * AlertReceiver is a place the controller posts its alerts to ({@code mesh alerts add URL}): an Alertmanager's base
 * URL (the controller posts to its {@code /api/v2/alerts}), when and by whom it was added, and how the controller's
 * last post there went ({@code lastPost}: an instant, null before the first; {@code lastError}: null when it was
 * accepted).
 */
public record AlertReceiver(String url, String addedAt, String addedBy, String lastPost, String lastError) {
}
