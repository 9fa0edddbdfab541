package mesh.wire;

import java.util.List;

/** BackupCommand is a component's {@code backup:} command, run in its container before the copy (docs/backup.md). */
public record BackupCommand(String component, List<String> command) {
}
