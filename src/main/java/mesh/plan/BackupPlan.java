package mesh.plan;

import mesh.model.BackupStep;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Outcome;

import java.time.Duration;
import java.util.List;
import mesh.model.BackupVolume;

/**
 * BackupPlan decides a backup, apart from carrying it out: from its record and what its current step found, the
 * record with the step to carry out next. Pure; the controller's runner ({@code mesh.controller.OperationRunner}) acts and
 * records each result before it moves on, so a runner that dies redoes its step (each is idempotent: a fence at the
 * same epoch, an upload that skips the blobs the registry has, an unfence, a retention that deletes what is expired).
 *
 * <pre>
 *  fenced:   fence ─► copy ─► unfence ─► retain ─► done
 *              └───────┴─► unfence ─► failed          (a failed fence or copy: the module runs again first)
 *  live:     copy (the backup commands, then the upload) ─► retain ─► done;  a failed copy: failed
 * </pre>
 *
 * <p>A failed unfence is tried again and again: the module stays stopped until it goes through, so the runner never
 * gives up on it (it says why as the backup's problem). A failed retention does not fail the backup: it is said.
 */
public final class BackupPlan {

    private BackupPlan() {
    }

    /** PLAN is the backup's {@link Operation.Plan}, for {@code mesh.controller.OperationRunner}. */
    public static final Operation.Plan<Backup> PLAN = new Operation.Plan<>() {
        @Override
        public BackupStep step(Backup b) {
            return b.step();
        }

        @Override
        public boolean ended(Backup b) {
            return b.step().ended();
        }

        @Override
        public Backup after(Backup b, Outcome o) {
            return BackupPlan.after(b, o);
        }

        @Override
        public String problem(Backup b) {
            return b.problem();
        }

        @Override
        public Duration deadline(Backup b) {
            return switch (b.step()) {
                case FENCE, UNFENCE -> Duration.ofMinutes(15);   // the registry's ping, then a fence's stop timeouts
                case COPY -> Duration.ofHours(24);    // bounded by its own rule: no progress line for 30 s fails it
                case RETAIN -> Duration.ofMinutes(10);
                case DONE, FAILED -> Duration.ofMinutes(1);
            };
        }

        @Override
        public String describe(Backup b) {
            return BackupPlan.describe(b);
        }
    };

    /** The copy went through: the artifact's manifest digest, totals and each volume's manifest digest. */
    public record Copied(String manifest, long bytes, long files, long sent, List<BackupVolume> volumes) implements Outcome {
    }

    public static Backup after(Backup b, Outcome o) {
        if (b.step().ended()) {
            return b;
        }
        return switch (b.step()) {
            case FENCE -> o instanceof Failed f ? b.withError("fence: " + f.words()).at(BackupStep.UNFENCE) : b.at(BackupStep.COPY);
            case COPY -> {
                if (o instanceof Failed f) {
                    Backup failed = b.withError("copy: " + f.words());
                    yield failed.at(b.live() ? BackupStep.FAILED : BackupStep.UNFENCE);
                }
                Backup copied = o instanceof Copied c ? b.copied(c.manifest(), c.bytes(), c.files(), c.sent(), c.volumes()) : b;
                yield copied.at(b.live() ? BackupStep.RETAIN : BackupStep.UNFENCE);
            }
            case UNFENCE -> o instanceof Failed f ? b.withProblem("unfence: " + f.words() + "; the module stays stopped until"
                    + " it goes through (tried again)") : b.at(b.error() != null ? BackupStep.FAILED : BackupStep.RETAIN);
            case RETAIN -> o instanceof Failed f ? b.at(BackupStep.DONE).withProblem("retain: " + f.words()) : b.at(BackupStep.DONE);
            case DONE, FAILED -> b;
        };
    }

    /** Whether the module may run now, as far as this backup goes: not between its fence and its unfence. */
    public static boolean moduleMayRun(Backup b) {
        return b.live() || b.step() == BackupStep.FENCE || b.step() == BackupStep.RETAIN || b.step().ended();
    }

    /** The step in words, for the log and the operator's lines. */
    public static String describe(Backup b) {
        return switch (b.step()) {
            case FENCE -> "fence: stop " + b.module() + " on " + b.node() + " with its stop timeouts";
            case COPY -> (b.live() ? "copy: run the backup commands, then send " : "copy: send ") + "every volume's changed files"
                    + " from " + b.node() + " to " + b.registry();
            case UNFENCE -> "unfence: start " + b.module() + " on " + b.node() + " again";
            case RETAIN -> "retain: remove the module's backups beyond those kept";
            case DONE -> "done";
            case FAILED -> "failed: " + b.error();
        };
    }
}
