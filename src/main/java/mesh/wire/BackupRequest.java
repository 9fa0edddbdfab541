package mesh.wire;

/** BackupRequest is {@code mesh backup MODULE}: {@code POST /v1/mesh/backups}. */
public record BackupRequest(String module) {
}
