package mesh.plan;

import mesh.model.RestoreStep;
import mesh.model.TakeStep;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Outcome;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import mesh.model.BackupVolume;

/**
 * RestorePlan decides a restore (docs/backup.md, "Restore"), apart from carrying it out: from a restore's record and
 * what its current step found, the record with its next step. Pure. A restore is a take whose data comes from a
 * backup, and keeps the take's rule: never two copies running.
 *
 * <pre>
 *  preflight ─► fence (the source answers) ─► restore ─► start ─► switch ─► push ─► old-copy ─► done
 *           └─► lose  (it does not)  ──────────┘    │        └────┬───┘
 *                                      failure ▼       failure ▼
 *                 unfence ─► delete-copy ─► rolled-back   stop-target ─► delete-copy ─► unfence ─► rolled-back
 * </pre>
 *
 * <p>A source that does not answer cannot be fenced: its copy is marked <em>lost</em> in the store, and the
 * controller fences it there (and records it as an old copy) the first time its agent answers again, before anything
 * else is sent to it; so the module never runs there again unless a take brings it back. Until the target runs the
 * module, a rollback lifts the fence (or the lost mark) first and deletes the target's copy after, as a take does; from
 * the start on the target is stopped first. From the switch on a restore never rolls back: the names have moved.
 */
public final class RestorePlan {

    private RestorePlan() {
    }

    /** PLAN is the restore's {@link Operation.Plan}, for {@code mesh.controller.OperationRunner}. */
    public static final Operation.Plan<Restore> PLAN = new Operation.Plan<>() {
        @Override
        public RestoreStep step(Restore r) {
            return r.step();
        }

        @Override
        public boolean ended(Restore r) {
            return r.step().ended();
        }

        @Override
        public Restore after(Restore r, Outcome o) {
            return RestorePlan.after(r, o);
        }

        @Override
        public String problem(Restore r) {
            return r.problem();
        }

        @Override
        public Duration deadline(Restore r) {
            return RestorePlan.deadline(r);
        }

        @Override
        public String describe(Restore r) {
            return "step " + r.step().word();
        }
    };

    /**
     * The longest a restore's step may take: the take's bound for the steps it shares ({@link TakePlan#deadline}); the
     * restore itself (the target writes the backup from the registry) is bounded by its own rule, no progress line for
     * 30 s, so its deadline only catches a runner that hangs.
     */
    public static Duration deadline(Restore r) {
        return switch (r.step()) {
            case PREFLIGHT -> Duration.ofMinutes(15);
            case FENCE -> Duration.ofMinutes(15);   // a fence waits on the module's stop timeouts, ten minutes at most
            case OLD_COPY -> Duration.ofMinutes(10);
            case LOSE, DONE, ROLLED_BACK, FAILED -> Duration.ofMinutes(1);
            case RESTORE -> Duration.ofHours(24);
            case START, SWITCH, PUSH, STOP_TARGET, DELETE_COPY, UNFENCE ->
                    TakePlan.deadline(r.asTake(TakeStep.valueOf(r.step().name())));
        };
    }

    /** The preflight went through; whether the module's node (the source) answered. */
    public record Preflighted(boolean sourceAnswers) implements Outcome {
    }

    /** The target wrote and checked the backup's volumes: their digests as restored. */
    public record Restored(List<BackupVolume> volumes) implements Outcome {
    }

    public static Restore after(Restore r, Outcome o) {
        if (r.step().ended()) {
            return r;
        }
        if (o instanceof Failed f) {
            return failed(r, f.words());
        }
        return switch (r.step()) {
            case PREFLIGHT -> r.at(r.from() == null ? RestoreStep.RESTORE
                    : o instanceof Preflighted p && !p.sourceAnswers() ? RestoreStep.LOSE : RestoreStep.FENCE);
            case FENCE -> r.at(RestoreStep.RESTORE);
            case LOSE -> r.withLost(true).at(RestoreStep.RESTORE);
            case RESTORE -> r.withVolumes(o instanceof Restored d ? d.volumes() : r.volumes()).at(RestoreStep.START);
            case START -> r.at(RestoreStep.SWITCH);
            case SWITCH -> r.at(RestoreStep.PUSH);
            case PUSH -> r.at(r.from() == null ? RestoreStep.DONE : RestoreStep.OLD_COPY);
            case OLD_COPY -> r.at(RestoreStep.DONE);
            case STOP_TARGET -> r.at(RestoreStep.DELETE_COPY);
            case DELETE_COPY -> r.at(r.started() && needsUnfence(r) ? RestoreStep.UNFENCE : RestoreStep.ROLLED_BACK);
            case UNFENCE -> r.withLost(false).at(r.started() ? RestoreStep.ROLLED_BACK : RestoreStep.DELETE_COPY);
            case DONE, ROLLED_BACK, FAILED -> r;
        };
    }

    private static boolean needsUnfence(Restore r) {
        return r.from() != null;
    }

    /**
     * After a failure: the preflight fails the restore (nothing changed); a failure before the start rolls back with the
     * unfence first (the module runs on its node again at once, if that node answers); at the start or the switch, the
     * target is stopped first; from the push on, and in a rollback, the step is tried again (the runner gives up after
     * its tries and the restore waits, saying why).
     */
    static Restore failed(Restore r, String why) {
        return switch (r.step()) {
            case PREFLIGHT -> r.withError("preflight: " + why).at(RestoreStep.FAILED);
            case FENCE, LOSE, RESTORE -> r.withError(r.step().word() + ": " + why)
                    .at(r.from() == null ? RestoreStep.DELETE_COPY : RestoreStep.UNFENCE);
            case START, SWITCH -> r.withError(r.step().word() + ": " + why).at(RestoreStep.STOP_TARGET);
            default -> r.withProblem(r.step().word() + ": " + why);
        };
    }

    /** Whether the module may run on its old node (the source) at this step: before its fence, or after the unfence. */
    public static boolean sourceMayRun(Restore r) {
        return r.step() == RestoreStep.PREFLIGHT || r.step() == RestoreStep.FAILED
                || r.step() == RestoreStep.ROLLED_BACK || (r.step() == RestoreStep.DELETE_COPY && !r.started());
    }

    /** Whether the module may run on the target at this step: from its start until a rollback stops it there. */
    public static boolean targetMayRun(Restore r) {
        return switch (r.step()) {
            case SWITCH, PUSH, OLD_COPY, DONE, STOP_TARGET -> true;
            case START -> true;
            default -> false;
        };
    }

    /** The steps a restore will carry out from its current one, for a dry run. */
    public static List<String> stepsAhead(Restore r, boolean sourceAnswers) {
        List<String> steps = new ArrayList<>();
        if (r.from() != null) {
            steps.add(sourceAnswers ? "fence: stop " + r.module() + " on " + r.from() + " with its stop timeouts; it is not started"
                    + " there again (its data stays, as a take's old copy)"
                    : "lose: " + r.from() + " does not answer: its copy of " + r.module() + " is marked lost, and fenced there"
                    + " the first time its agent answers again, so it never starts there again");
        }
        steps.add("restore: " + r.to() + " writes backup " + r.backup() + " (" + String.join(", ", r.volumes().stream()
                .map(BackupVolume::name).toList()) + ") from the registry and checks every file against its manifest");
        steps.add("start: " + r.to() + " runs " + r.module() + " and its health checks pass");
        steps.add("switch: " + r.module() + ".internal and its routes move to " + r.to());
        steps.add("push: the nodes whose components bind its names get them; exactly its binders are replaced");
        if (r.from() != null) {
            steps.add("old-copy: the copy on " + r.from() + " is kept as an old copy ('mesh take --forget-old " + r.module()
                    + "' removes it)");
        }
        return steps;
    }
}
