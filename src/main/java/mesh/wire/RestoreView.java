package mesh.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import mesh.model.BackupVolume;

/**
 * RestoreView is one restore as the controller shows it ({@code GET /v1/mesh/restores/{id}}): the module, the backup,
 * where the module ran ({@code from}) and where it is restored ({@code to}), its take epoch, whether the source's copy
 * was marked lost (it did not answer), its step and state ({@code running}, {@code done}, {@code rolled-back},
 * {@code failed}), the volumes with their manifest digests, why it failed, its step's last problem, the progress of the
 * target's writing while it runs, and for a dry run the steps it would take.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RestoreView(long id, String module, long backup, String from, String to, long epoch, boolean lost, mesh.model.TakeStep step,
                          mesh.model.OperationState state, List<BackupVolume> volumes, String error, String problem, BackupProgress progress,
                          List<String> steps) {
}
