package mesh.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import mesh.model.BackupVolume;

/**
 * BackupProgress is one line of an agent's backup, restore or verify (NDJSON, docs/backup.md): while it works, the
 * volume it is at, {@code bytes} read (or written) and {@code files} so far and {@code sent}, the bytes sent to the
 * registry (a backup), about once a second; at the end {@code done} with the totals, and for a backup the artifact's
 * {@code manifest} digest and each volume's manifest digest, or {@code done: false} and the {@code error}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BackupProgress(Boolean done, String volume, Long bytes, Long files, Long sent, Long rate, String error,
                             String manifest, Long size, List<BackupVolume> volumes, Double seconds) {

    public static BackupProgress running(String volume, long bytes, long files, long sent, long rate) {
        return new BackupProgress(null, volume, bytes, files, sent, rate, null, null, null, null, null);
    }

    public static BackupProgress finished(long bytes, long files, long sent, String manifest, long size,
                                          List<BackupVolume> volumes, double seconds) {
        return new BackupProgress(true, null, bytes, files, sent, null, null, manifest, size, volumes, seconds);
    }

    public static BackupProgress failed(String error) {
        return new BackupProgress(false, null, null, null, null, null, error, null, null, null, null);
    }
}
