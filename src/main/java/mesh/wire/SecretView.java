package mesh.wire;

/**
 * SecretView is one secret as {@code mesh secret list} shows it ({@code GET /v1/mesh/secrets}): its
 * module, name, version, when and by which operator token it was last set. Never its value.
 */
public record SecretView(String module, String name, int version, String setAt, String setBy) {
}
