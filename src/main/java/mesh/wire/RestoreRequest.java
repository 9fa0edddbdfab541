package mesh.wire;

/**
 * RestoreRequest is {@code mesh restore MODULE [ID] [--to NODE] [--dry-run]}: {@code POST /v1/mesh/restores}; {@code
 * backup} null: the module's newest backup that is done; {@code to} null: the node it runs on.
 */
public record RestoreRequest(String module, Long backup, String to, Boolean dryRun) {
}
