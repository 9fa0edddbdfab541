package mesh.wire;

import java.util.List;

/**
 * RollbackRequest is the body of {@code POST /v1/mesh/rollback}: the push to roll the mesh back to (its
 * id in the audit trail), and, as for a push, {@code dryRun}, {@code yes} and the mesh modules it may
 * remove all the same; null means false, false and none.
 */
public record RollbackRequest(Long push, Boolean dryRun, Boolean yes, List<String> forceRemoveMeshModules) {
}
