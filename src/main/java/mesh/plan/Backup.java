package mesh.plan;

import mesh.model.BackupStep;

import java.util.List;
import mesh.model.BackupVolume;

/**
 * Backup is one backup's record as the store keeps it (docs/backup.md): its number, module, the node it was read on,
 * where it goes (registry, repository, tag), the epoch of its fence (a live backup's too: it is the module's), whether
 * the module ran meanwhile ({@code live}: its components' backup commands made the copy), the step it carries out
 * next, what the copy found (the artifact's manifest digest, bytes, files, the bytes sent, each volume's manifest
 * digest), why it failed ({@code error}) and why the last try of its step did not go through ({@code problem}).
 */
public record Backup(long id, String module, String node, String registry, String repository, String tag, long epoch,
                     boolean live, BackupStep step, String manifest, long bytes, long files, long sent,
                     List<BackupVolume> volumes, String error, String problem) {

    public Backup {
        volumes = volumes == null ? List.of() : List.copyOf(volumes);
    }

    /** A new backup at its first step: the fence, or with backup commands the copy itself. */
    public static Backup start(long id, String module, String node, String registry, String repository, long epoch, boolean live,
                               List<BackupVolume> volumes) {
        return new Backup(id, module, node, registry, repository, "backup-" + id, epoch, live,
                live ? BackupStep.COPY : BackupStep.FENCE, null, 0, 0, 0, volumes, null, null);
    }

    public Backup at(BackupStep next) {
        return new Backup(id, module, node, registry, repository, tag, epoch, live, next, manifest, bytes, files, sent, volumes,
                error, null);
    }

    public Backup withError(String why) {
        return new Backup(id, module, node, registry, repository, tag, epoch, live, step, manifest, bytes, files, sent, volumes,
                why, problem);
    }

    public Backup withProblem(String why) {
        return new Backup(id, module, node, registry, repository, tag, epoch, live, step, manifest, bytes, files, sent, volumes,
                error, why);
    }

    public Backup copied(String digest, long bytes, long files, long sent, List<BackupVolume> volumes) {
        return new Backup(id, module, node, registry, repository, tag, epoch, live, step, digest, bytes, files, sent, volumes,
                error, problem);
    }
}
