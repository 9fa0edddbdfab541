package mesh.wire;

import java.util.List;
import mesh.model.BackupVolume;

/**
 * BackupPushRequest asks an agent to back a module's volumes up into a registry (docs/backup.md, "On the nodes"):
 * {@code live} false reads them only while the module is fenced here at {@code epoch}; true (the module runs) first runs
 * {@code commands} in their containers. The artifact goes to {@code registry}, repository {@code repository}, tag {@code tag}.
 */
public record BackupPushRequest(long epoch, boolean live, String registry, String repository, String tag,
                                List<BackupVolume> volumes, List<BackupCommand> commands) {

    public BackupPushRequest {
        volumes = volumes == null ? List.of() : List.copyOf(volumes);
        commands = commands == null ? List.of() : List.copyOf(commands);
    }
}
