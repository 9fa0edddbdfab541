package mesh.plan;

import mesh.model.TakeStep;
import mesh.model.RestoreStep;

import java.util.List;
import mesh.model.BackupVolume;

/**
 * Restore is one restore's record (docs/backup.md, "Restore"): the module, the backup it brings back, the node the
 * module ran on ({@code from}, null: nowhere) and the node it is restored to, its take epoch (the fences and the
 * target's copy carry it), whether the source was found not answering and its copy marked lost ({@code lost}), the step
 * it carries out next, the volumes with their manifest digests (the backup's, then as restored), whether it reached its
 * start ({@code started}: a rollback then stops the target first), why it failed and why its step's last try did not
 * go through.
 */
public record Restore(long id, String module, long backup, String from, String to, long epoch, boolean lost,
                      RestoreStep step, List<BackupVolume> volumes, boolean started, String error, String problem) {

    public Restore {
        volumes = volumes == null ? List.of() : List.copyOf(volumes);
    }

    public static Restore start(long id, String module, long backup, String from, String to, long epoch, List<BackupVolume> volumes) {
        return new Restore(id, module, backup, from, to, epoch, false, RestoreStep.PREFLIGHT, volumes, false, null, null);
    }

    public Restore at(RestoreStep next) {
        return new Restore(id, module, backup, from, to, epoch, lost, next, volumes, started || next == RestoreStep.START,
                error, null);
    }

    public Restore withLost(boolean next) {
        return new Restore(id, module, backup, from, to, epoch, next, step, volumes, started, error, problem);
    }

    public Restore withVolumes(List<BackupVolume> next) {
        return new Restore(id, module, backup, from, to, epoch, lost, step, next, started, error, problem);
    }

    public Restore withError(String why) {
        return new Restore(id, module, backup, from, to, epoch, lost, step, volumes, started, why, problem);
    }

    public Restore withProblem(String why) {
        return new Restore(id, module, backup, from, to, epoch, lost, step, volumes, started, error, why);
    }

    /** The take this restore is, for the take's own start, switch and push ({@code mesh.controller.TakeSteps}). */
    public Take asTake(TakeStep step) {
        List<Take.Volume> vs = volumes.stream().map(v -> new Take.Volume(v.name(), v.kind(), v.bytes() == null ? 0 : v.bytes(),
                v.files() == null ? 0 : v.files(), true, null, null)).toList();
        return new Take(module, from, to, epoch, false, step, vs, null, error, problem);
    }
}
