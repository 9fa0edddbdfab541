package mesh.wire;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * BackupStatus is one module's backups as {@code mesh status} shows them ({@code GET /v1/mesh/backups/status}): where
 * the module runs, its schedule ({@code every}, seconds; {@code keep}), its last backup (number, state, when it began,
 * why it failed) and last good one, when the next is due, the node its registry runs on, and {@code sameNode}: the
 * registry runs on the module's own node (a backup on the same disk is not a backup).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BackupStatus(String module, String node, Long every, int keep, Long last, mesh.model.OperationState lastState, String lastAt,
                           String lastError, Long lastDone, String lastDoneAt, String nextDue, String registry,
                           String registryNode, boolean sameNode) {
}
