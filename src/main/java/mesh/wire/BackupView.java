package mesh.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import mesh.model.BackupVolume;

/**
 * BackupView is one backup as the controller shows it ({@code GET /v1/mesh/backups}, {@code mesh backup list -o json}):
 * its number, module, the node it was read on, how it began ({@code operator} or {@code schedule}), its step and state
 * ({@code running}, {@code done}, {@code failed}), whether the module ran meanwhile ({@code live}), where it is (registry,
 * repository, tag, the artifact's {@code manifest} digest), its size ({@code bytes}, {@code files}) and the bytes this
 * backup sent to the registry ({@code sent}: what was new), each volume's manifest digest, when it began and ended, its
 * last verify ({@code verifiedAt}, {@code verifyError}: null when every file matched), why it failed or what its step's
 * last try met, and the progress of its copy while it runs.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BackupView(long id, String module, String node, String trigger, mesh.model.BackupStep step,
                         mesh.model.OperationState state, boolean live,
                         String registry, String repository, String tag, String manifest, long bytes, long files, long sent,
                         List<BackupVolume> volumes, String startedAt, String endedAt, String verifiedAt, String verifyError,
                         String error, String problem, String removedAt, BackupProgress progress) {
}
