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

    /** Kept is a backup as retention sees it: its number, whether it ended done, and when it began. */
    public record Kept(long id, boolean done, Instant startedAt) {
    }

    /**
     * The backups to remove: every done backup beyond the newest {@code keep} done ones. Failed backups are no
     * backups and count for nothing (their record stays, as the audit does); a running one is never removed.
     */
    public static List<Long> expired(List<Kept> backups, int keep) {
        List<Kept> done = new ArrayList<>(backups.stream().filter(Kept::done).toList());
        done.sort(Comparator.comparing(Kept::startedAt).thenComparing(Kept::id).reversed());
        return done.stream().skip(Math.max(1, keep)).map(Kept::id).sorted().toList();
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
