package mesh.wire;

/**
 * AlertReceiverRequest is {@code POST /v1/mesh/alerts/receivers}: an Alertmanager's base URL, and whether the controller
 * first checks that it takes alerts there (null: yes; {@code mesh alerts add --no-check} says false).
 */
public record AlertReceiverRequest(String url, Boolean check) {
}
