package mesh.plan;

import java.util.List;

/**
 * Take is one take's record as the store keeps it: the module, where it comes from (null: it ran
 * nowhere) and goes to, its epoch (which the agents' fences carry), the step it carries out next,
 * its volumes with what the copy and the verify found, the source's read ticket, why it failed or
 * rolls back ({@code error}) and why the last try of its current step did not go through
 * ({@code problem}, cleared when a step succeeds).
 */
public record Take(String module, String from, String to, long epoch, boolean back, TakeStep step,
                   List<Volume> volumes, String ticket, String error, String problem) {

    public Take {
        volumes = volumes == null ? List.of() : List.copyOf(volumes);
    }

    /**
     * Volume is one volume of the module: its manifest name ({@code data}), kind ({@code container}: an
     * engine volume; {@code process}: a folder), the bytes and files the source holds, whether this
     * take's copy of it is complete, and the manifest digests found at verify.
     */
    public record Volume(String name, String kind, long bytes, long files, boolean copied, String sourceDigest,
                         String targetDigest) {

        public Volume copiedAs(long bytes, long files) {
            return new Volume(name, kind, bytes, files, true, sourceDigest, targetDigest);
        }
    }

    /** A new take of {@code module}, at its first step. */
    public static Take start(String module, String from, String to, long epoch, boolean back) {
        return new Take(module, from, to, epoch, back, TakeStep.PREFLIGHT, List.of(), null, null, null);
    }

    public Take at(TakeStep next) {
        return new Take(module, from, to, epoch, back, next, volumes, ticket, error, null);
    }

    public Take withVolumes(List<Volume> next) {
        return new Take(module, from, to, epoch, back, step, next, ticket, error, problem);
    }

    public Take withTicket(String next) {
        return new Take(module, from, to, epoch, back, step, volumes, next, error, problem);
    }

    public Take withError(String next) {
        return new Take(module, from, to, epoch, back, step, volumes, ticket, next, problem);
    }

    public Take withProblem(String next) {
        return new Take(module, from, to, epoch, back, step, volumes, ticket, error, next);
    }

    /** The bytes all its volumes hold on the source. */
    public long bytes() {
        return volumes.stream().mapToLong(Volume::bytes).sum();
    }

    /** The first volume whose copy is not complete, or null. */
    public Volume nextToCopy() {
        return volumes.stream().filter(v -> !v.copied()).findFirst().orElse(null);
    }
}
