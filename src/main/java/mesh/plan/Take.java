package mesh.plan;

import mesh.model.TakeStep;

import java.util.List;

/**
 * Take is one take's record as the store keeps it: the module, where it comes from (null: it ran
 * nowhere) and goes to, its epoch (which the agents' fences carry), the step it carries out next,
 * its volumes with what the copy and the verify found, the source's read ticket, why it failed or
 * rolls back ({@code error}) and why the last try of its current step did not go through
 * ({@code problem}, cleared when a step succeeds), whether it copies only after the fence ({@code stopAndCopy}:
 * no pre-copy, {@code mesh take --stop-and-copy}), and, for a restore, the backup its data comes from
 * ({@code fromBackup}: null for a take from a node).
 */
public record Take(String module, String from, String to, long epoch, boolean back, TakeStep step,
                   List<Volume> volumes, String ticket, String error, String problem, boolean stopAndCopy,
                   FromBackup fromBackup) {

    public Take(String module, String from, String to, long epoch, boolean back, TakeStep step, List<Volume> volumes,
                String ticket, String error, String problem) {
        this(module, from, to, epoch, back, step, volumes, ticket, error, problem, false, null);
    }

    /**
     * FromBackup makes a take a restore (docs/backup.md, "Restore"): the restore's number, the backup whose data the
     * target writes in place of a copy from the source, whether the source was found not answering and its copy
     * marked lost ({@code lost}: the controller fences it there when its agent answers again), and the node the operator
     * said is down ({@code down}, {@code mesh restore --down NODE}; null: none): only a source named down may be marked
     * lost, since a node that does not answer may be only cut off, its module still running.
     */
    public record FromBackup(long restore, long backup, boolean lost, String down) {
    }

    /**
     * A new restore of {@code module} from backup {@code backup}, at its first step: a take whose data is the backup's;
     * {@code down}: the node the operator said is down (null: none).
     */
    public static Take restore(long id, String module, long backup, String from, String to, long epoch, List<Volume> volumes,
                               String down) {
        return new Take(module, from, to, epoch, false, TakeStep.PREFLIGHT, volumes, null, null, null, false,
                new FromBackup(id, backup, false, down));
    }

    /** Whether this take is a restore: its data comes from a backup, not from its source. */
    public boolean restoring() {
        return fromBackup != null;
    }

    /** Whether the operator said this restore's source is down ({@code mesh restore --down}): its copy may be marked lost. */
    public boolean sourceSaidDown() {
        return fromBackup != null && from != null && from.equals(fromBackup.down());
    }

    /** Whether this restore marked its source's copy lost (false for a take). */
    public boolean lost() {
        return fromBackup != null && fromBackup.lost();
    }

    public Take withLost(boolean next) {
        return new Take(module, from, to, epoch, back, step, volumes, ticket, error, problem, stopAndCopy,
                new FromBackup(fromBackup.restore(), fromBackup.backup(), next, fromBackup.down()));
    }

    public Take {
        volumes = volumes == null ? List.of() : List.copyOf(volumes);
    }

    /**
     * Volume is one volume of the module: its manifest name ({@code data}), kind ({@code container}: an
     * engine volume; {@code process}: a folder), the bytes and files the source holds, whether this
     * take's copy of it is complete, the manifest digests found at verify, and each pass that copied it
     * (the pre-copy's passes while the module ran, then the delta after the fence).
     */
    public record Volume(String name, String kind, long bytes, long files, boolean copied, String sourceDigest,
                         String targetDigest, List<Pass> passes) {

        public Volume {
            passes = passes == null ? List.of() : List.copyOf(passes);
        }

        public Volume(String name, String kind, long bytes, long files, boolean copied, String sourceDigest,
                      String targetDigest) {
            this(name, kind, bytes, files, copied, sourceDigest, targetDigest, List.of());
        }

        /** A volume of a backup as a restore's take holds it: its data complete once restored, the backup's digest its source's. */
        public static Volume of(mesh.model.BackupVolume v) {
            return new Volume(v.name(), v.kind(), v.bytes() == null ? 0 : v.bytes(), v.files() == null ? 0 : v.files(), true,
                    v.digest(), null);
        }

        /** The volume as a backup's (and a restore's view) says it: the digest its data has, restored or backed up. */
        public mesh.model.BackupVolume asBackup() {
            return new mesh.model.BackupVolume(name, kind, targetDigest != null ? targetDigest : sourceDigest, bytes, files);
        }

        public Volume copiedAs(long bytes, long files) {
            return new Volume(name, kind, bytes, files, true, sourceDigest, targetDigest, passes);
        }

        /** The volume with one more pass done; a pass after the fence ({@code live} false) completes its copy. */
        public Volume withPass(Pass p) {
            List<Pass> next = new java.util.ArrayList<>(passes);
            next.add(p);
            return new Volume(name, kind, bytes, files, copied || !p.live(), sourceDigest, targetDigest, next);
        }

        public Volume withDigests(String source, String target) {
            return new Volume(name, kind, bytes, files, copied, source, target, passes);
        }

        /** How many passes ran while the module ran (the pre-copy). */
        public int livePasses() {
            return (int) passes.stream().filter(Pass::live).count();
        }

        /** The source's clock at the start of its last pass (ms since the epoch; 0: no pass yet). */
        public long since() {
            return passes.isEmpty() ? 0 : passes.get(passes.size() - 1).since();
        }
    }

    /**
     * Pass is one pass of a volume's copy: whether the module ran meanwhile ({@code live}: the pre-copy) or
     * was fenced (the delta), the bytes the archive carried, the entries written and deleted on the target,
     * how long it took, and the source's clock when it began (ms since the epoch), which the next pass's
     * "changed since" rule needs ({@code VolumeDelta}).
     */
    public record Pass(boolean live, long bytes, long files, long deleted, double seconds, long since) {
    }

    /** A new take of {@code module}, at its first step. */
    public static Take start(String module, String from, String to, long epoch, boolean back) {
        return new Take(module, from, to, epoch, back, TakeStep.PREFLIGHT, List.of(), null, null, null);
    }

    /** The same take without a pre-copy: it copies only after the fence, as takes did before pre-copies. */
    public Take withStopAndCopy(boolean next) {
        return new Take(module, from, to, epoch, back, step, volumes, ticket, error, problem, next, fromBackup);
    }

    public Take at(TakeStep next) {
        return new Take(module, from, to, epoch, back, next, volumes, ticket, error, null, stopAndCopy, fromBackup);
    }

    public Take withVolumes(List<Volume> next) {
        return new Take(module, from, to, epoch, back, step, next, ticket, error, problem, stopAndCopy, fromBackup);
    }

    public Take withTicket(String next) {
        return new Take(module, from, to, epoch, back, step, volumes, next, error, problem, stopAndCopy, fromBackup);
    }

    public Take withError(String next) {
        return new Take(module, from, to, epoch, back, step, volumes, ticket, next, problem, stopAndCopy, fromBackup);
    }

    public Take withProblem(String next) {
        return new Take(module, from, to, epoch, back, step, volumes, ticket, error, next, stopAndCopy, fromBackup);
    }

    /** The bytes all its volumes hold on the source. */
    public long bytes() {
        return volumes.stream().mapToLong(Volume::bytes).sum();
    }

    /** The first volume whose pre-copy pass {@code n} (1-based) has not run yet, or null. */
    public Volume nextToPreCopy(int n) {
        return volumes.stream().filter(v -> v.livePasses() < n).findFirst().orElse(null);
    }

    /** The pre-copy's pass under way: the most passes any volume has had live (0: none yet). */
    public int livePass() {
        return volumes.stream().mapToInt(Volume::livePasses).max().orElse(0);
    }

    /** The totals of each pre-copy pass over all volumes, in order, for the passes every volume has had. */
    public List<Pass> livePassTotals() {
        int whole = volumes.stream().mapToInt(Volume::livePasses).min().orElse(0);
        List<Pass> totals = new java.util.ArrayList<>();
        for (int i = 0; i < whole; i++) {
            long bytes = 0, files = 0, deleted = 0;
            double seconds = 0;
            for (Volume v : volumes) {
                Pass p = v.passes().stream().filter(Pass::live).toList().get(i);
                bytes += p.bytes();
                files += p.files();
                deleted += p.deleted();
                seconds += p.seconds();
            }
            totals.add(new Pass(true, bytes, files, deleted, seconds, 0));
        }
        return totals;
    }

    /** The first volume whose copy is not complete, or null. */
    public Volume nextToCopy() {
        return volumes.stream().filter(v -> !v.copied()).findFirst().orElse(null);
    }
}
