package mesh.wire;

/**
 * RestoreRequest is {@code mesh restore MODULE [ID] [--to NODE] [--down NODE] [--dry-run]}: {@code POST /v1/mesh/restores};
 * {@code backup} null: the module's newest backup that is done; {@code to} null: the node it runs on; {@code down}: the
 * node the operator says is down (null: none), whose copy the restore may then mark lost if it does not answer.
 */
public record RestoreRequest(String module, Long backup, String to, String down, Boolean dryRun) {
}
