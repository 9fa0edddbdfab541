package mesh.wire;

/**
 * AlertView is one of the controller's alerts as {@code mesh alerts list} shows it: its Alertmanager name
 * ({@code MeshNodeDown}, …), what it is about ({@code subject}: a node, {@code module@node}, a module; {@code node} and
 * {@code module} when it is about one), whether it fires yet (a pending one waits for its condition to hold long
 * enough), since when its condition holds and when it fired (instants), and what it says. A resolved one
 * ({@code resolvedAt} set) says how long it {@code lasted} (seconds).
 */
public record AlertView(String alert, String subject, String node, String module, boolean firing, String since,
                        String firedAt, String detail, String resolvedAt, Long lasted) {
}
