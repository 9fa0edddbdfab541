package mesh.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * BackupRetention decides, purely, which backups a module keeps and when the next one is due (docs/backup.md,
 * "Schedule and retention"). Time comes in as a parameter.
 */
public final class BackupRetention {

    private BackupRetention() {
    }

    /** Kept is a backup as retention sees it: its number, whether it ended done (or failed), and when it began. */
    public record Kept(long id, boolean done, boolean failed, Instant startedAt) {

        /** A backup that is done ({@code done}) or still running. */
        public Kept(long id, boolean done, Instant startedAt) {
            this(id, done, false, startedAt);
        }
    }

    /**
     * The backups to remove: every done backup beyond the newest {@code keep} done ones, and every failed one older
     * than the oldest done one kept (a failure the kept backups came after tells nothing more). Failed backups count
     * for nothing toward {@code keep}. A running backup is never in {@code backups} as failed: the caller passes the
     * one it retains for as done, and any other running one is left alone.
     */
    public static List<Long> expired(List<Kept> backups, int keep) {
        List<Kept> done = new ArrayList<>(backups.stream().filter(Kept::done).toList());
        done.sort(Comparator.comparing(Kept::startedAt).thenComparing(Kept::id).reversed());
        List<Kept> kept = done.stream().limit(Math.max(1, keep)).toList();
        List<Long> expired = new ArrayList<>(done.stream().skip(Math.max(1, keep)).map(Kept::id).toList());
        if (kept.size() == Math.max(1, keep)) {
            Instant oldestKept = kept.get(kept.size() - 1).startedAt();
            backups.stream().filter(b -> !b.done() && b.failed() && b.startedAt().isBefore(oldestKept))
                    .forEach(b -> expired.add(b.id()));
        }
        return expired.stream().sorted().toList();
    }

    /** Schedule is one module's schedule as the controller sees it now. */
    public record Schedule(String module, Duration every, boolean runs, boolean running, Instant lastStarted) {
    }

    /**
     * The modules whose backup is due at {@code now}: a schedule, the module running somewhere (a backup of nothing is
     * no backup), no backup of it under way, and none begun within {@code every} (a failed one counts: a module whose
     * backups fail is not tried again at every tick, only at the next period).
     */
    public static List<String> due(List<Schedule> schedules, Instant now) {
        return schedules.stream().filter(s -> s.every() != null && s.runs() && !s.running()
                        && (s.lastStarted() == null || !s.lastStarted().plus(s.every()).isAfter(now)))
                .map(Schedule::module).sorted().toList();
    }

    /** When the module's next backup is due (null: no schedule). */
    public static Instant next(Duration every, Instant lastStarted, Instant now) {
        if (every == null) {
            return null;
        }
        return lastStarted == null ? now : lastStarted.plus(every);
    }

    /**
     * Whether a backup lands on the disk of the module it backs up: the registry runs on the node the module runs on.
     * A backup on the same disk is not a backup (the disk's failure takes both).
     */
    public static boolean sameDisk(String moduleNode, String registryNode) {
        return moduleNode != null && moduleNode.equals(registryNode);
    }
}
