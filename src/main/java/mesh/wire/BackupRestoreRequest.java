package mesh.wire;

import java.util.List;
import mesh.model.BackupVolume;

/**
 * BackupRestoreRequest asks an agent to write a backup's volumes here and check them against the backup's manifest
 * (docs/backup.md): the artifact {@code reference} (a manifest digest) of {@code repository} at {@code registry}, as the
 * copy of a take at {@code epoch} (so a rollback deletes it as it deletes a take's copy).
 */
public record BackupRestoreRequest(long epoch, String registry, String repository, String reference, List<BackupVolume> volumes) {

    public BackupRestoreRequest {
        volumes = volumes == null ? List.of() : List.copyOf(volumes);
    }
}
