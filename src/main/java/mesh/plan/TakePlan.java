package mesh.plan;

import mesh.model.TakeStep;
import mesh.plan.Operation.Done;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Outcome;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * TakePlan decides a take, apart from carrying it out: from a take's record and what its current
 * step found ({@link Outcome}), the record with the step to carry out next. Pure: the controller's
 * runner ({@code mesh.controller.OperationRunner}, {@link #PLAN}) asks the agents and the store, hands the answer here,
 * and records the result before it moves on.
 *
 * <pre>
 *  preflight ─► pre-copy (passes × volumes) ─► fence ─► ticket ─► copy (the delta of each volume) ─► verify ─► start ─► switch ─► push ─► old-copy ─► done
 *     │               └───────────────────────────┴────────┴──────────┴──────────────────────────┤         └───┬───┘
 *     ▼ (nothing changed)                                           failure before the start ▼   failure at start or switch ▼
 *   failed                               unfence ─► delete-copy (if copied) ─► rolled-back     stop-target ─► delete-copy ─► unfence ─► rolled-back
 * </pre>
 *
 * <p>The pre-copy copies each volume while the module still runs on the source, pass after pass, each sending
 * only what changed since the one before; {@link PreCopy} decides when the next pass is not worth it. Then the
 * fence stops the module and the copy step sends each volume's last delta; the verify compares the whole
 * manifests, as a take without a pre-copy would.</p>
 *
 * <p>Before the start the target was never sent a declaration with the module, so its partial copy cannot
 * start: the source is unfenced first (the module runs again at once), and only then is the copy deleted. A
 * target that does not answer (stopped, its link down) then costs no downtime: a delete-copy that still fails
 * after its tries ends the take rolled back with the copy left, never started, emptied by the next take into
 * that node ({@link #gaveUp}). From the start on the target may run the module: it is stopped first.
 *
 * <p>A restore is a take whose data comes from a backup ({@link Take#restoring}, docs/backup.md "Restore"):
 *
 * <pre>
 *  preflight ─► fence (the source answers) ─► restore ─► start ─► switch ─► push ─► old-copy ─► done
 *           └─► lose  (it does not)  ──────────┘
 * </pre>
 *
 * <p>Its restore step stands where a take's copy and verify do (the target writes the backup and checks every file
 * against the backup's manifest), and every other decision is the take's, the rollbacks included. A source that does
 * not answer cannot be fenced: its copy is marked lost, and the controller fences it there the first time its agent
 * answers again, before anything else is sent to it; a rollback lifts that mark where a take's lifts its fence.
 *
 * <p>The rule it keeps: never two copies running. The source may run only until its fence is confirmed
 * and again once the target is confirmed stopped; the target may run only from the start step until it
 * is stopped on rollback ({@link #sourceMayRun}, {@link #targetMayRun}: no step allows both). A failure
 * after the switch is never rolled back (the names have moved): the step is tried again. A failed switch is rolled
 * back only once the store is read and says it did not commit ({@link #switchInDoubt}).
 */
public final class TakePlan {

    private TakePlan() {
    }

    /**
     * PLAN is the take's {@link Operation.Plan}: what {@code mesh.controller.OperationRunner} asks while it carries a
     * take out; the decisions are this class's.
     */
    public static final Operation.Plan<Take> PLAN = new Operation.Plan<>() {
        @Override
        public TakeStep step(Take t) {
            return t.step();
        }

        @Override
        public boolean ended(Take t) {
            return t.step().ended();
        }

        @Override
        public Take after(Take t, Outcome o) {
            return TakePlan.after(t, o);
        }

        @Override
        public String problem(Take t) {
            return t.problem();
        }

        @Override
        public Duration deadline(Take t) {
            return TakePlan.deadline(t);
        }

        @Override
        public String describe(Take t) {
            return TakeWords.describe(t);
        }

        @Override
        public Take gaveUp(Take t) {
            return TakePlan.gaveUp(t);
        }
    };

    /**
     * The longest a take's step may take: the sum of the bounds of the calls it makes (a fence waits on stop
     * timeouts, a manifest hashes a volume: ten minutes each; a start waits three minutes for health), with room.
     * The copies are bounded by their own rule (no line for 30 s, no bytes for 45 s: {@link CopyStall}), so their
     * deadline only catches a runner that hangs. A rollback's steps have theirs too: a delete-copy's is the grace it
     * gives a silent target and a delete per volume.
     */
    public static Duration deadline(Take t) {
        int volumes = Math.max(1, t.volumes().size());
        return switch (t.step()) {
            case PREFLIGHT -> Duration.ofMinutes(40);   // images, bundles, the source's volumes: ten minutes a call
            case PRE_COPY, COPY, RESTORE -> Duration.ofHours(24);
            case LOSE -> Duration.ofMinutes(1);
            case FENCE -> Duration.ofMinutes(10L + 10L * volumes);
            case TICKET, SWITCH -> Duration.ofMinutes(5);
            case VERIFY -> Duration.ofMinutes(5L + 10L * volumes);
            case START, UNFENCE -> Duration.ofMinutes(25);
            case PUSH -> Duration.ofMinutes(15);
            case OLD_COPY -> Duration.ofMinutes(10);
            case STOP_TARGET -> Duration.ofMinutes(20);
            case DELETE_COPY -> Duration.ofMinutes(1L + 2L * volumes);
            case DONE, ROLLED_BACK, FAILED -> Duration.ofMinutes(1);
        };
    }

    /**
     * A rollback's delete-copy before the start found the target not answering: its copy is recorded as left (the
     * controller deletes it when the node answers) and the take ends rolled back now ({@link #after}).
     */
    public record Left(String why) implements Outcome {
    }

    /** Preflight went through: the module's volumes on the source, with their sizes. */
    public record Preflighted(List<Take.Volume> volumes) implements Outcome {
    }

    /** A restore's preflight went through; whether the module's node (the source) answered. */
    public record SourceAnswers(boolean answers) implements Outcome {
    }

    /** A restore's target wrote and checked the backup's volumes: them as restored (their digests as written). */
    public record Restored(List<Take.Volume> volumes) implements Outcome {
    }

    /** The source gave a read ticket for this epoch. */
    public record Ticketed(String ticket) implements Outcome {
    }

    /** One volume was copied whole; {@code pass} says what its last pass sent (null: a whole copy, no pre-copy). */
    public record Copied(String volume, long bytes, long files, Take.Pass pass) implements Outcome {
        public Copied(String volume, long bytes, long files) {
            this(volume, bytes, files, null);
        }
    }

    /** One pass of the pre-copy went through for one volume, the module running. */
    public record PreCopied(String volume, Take.Pass pass) implements Outcome {
    }

    /** Both sides' manifests were made; {@code difference} says the first difference, null when they match. */
    public record Verified(List<Take.Volume> volumes, String difference) implements Outcome {
    }

    /** The record after its current step found {@code o}: the next step, or a rollback, or the same step again. */
    public static Take after(Take t, Outcome o) {
        if (t.step().ended()) {
            return t;
        }
        if (o instanceof Failed f) {
            return failed(t, f.words());
        }
        return switch (t.step()) {
            case PREFLIGHT -> t.restoring() ? restorePreflighted(t, o) : preflighted(t, o);
            case PRE_COPY -> preCopied(t, o);
            case FENCE -> t.at(t.restoring() ? TakeStep.RESTORE : t.volumes().isEmpty() ? TakeStep.START : TakeStep.TICKET);
            case LOSE -> t.withLost(true).at(TakeStep.RESTORE);
            case TICKET -> t.withTicket(o instanceof Ticketed k ? k.ticket() : t.ticket()).at(TakeStep.COPY);
            case COPY -> copied(t, o);
            case RESTORE -> t.withVolumes(o instanceof Restored r ? r.volumes() : t.volumes()).at(TakeStep.START);
            case VERIFY -> verified(t, o);
            case START -> t.at(TakeStep.SWITCH);
            case SWITCH -> switchFound(t, o);
            case PUSH -> t.at(t.from() == null || t.volumes().isEmpty() ? TakeStep.DONE : TakeStep.OLD_COPY);
            case OLD_COPY -> t.at(TakeStep.DONE);
            case STOP_TARGET -> t.at(copiesData(t) ? TakeStep.DELETE_COPY : TakeStep.UNFENCE);
            case DELETE_COPY -> o instanceof Left l && !targetStarted(t) ? left(t, l) : t.at(targetStarted(t) ? TakeStep.UNFENCE
                    : TakeStep.ROLLED_BACK);
            case UNFENCE -> (t.lost() ? t.withLost(false) : t).at(!targetStarted(t) && copyToDelete(t) ? TakeStep.DELETE_COPY
                    : TakeStep.ROLLED_BACK);
            case DONE, ROLLED_BACK, FAILED -> t;
        };
    }

    /**
     * SwitchFound is what the store holds of a switch in doubt ({@link #switchInDoubt}): the node the module's placement
     * has it taken on (null: none), read once no switch transaction of this take can still commit.
     */
    public record SwitchFound(String taken) implements Outcome {
    }

    /**
     * Whether {@code t}'s switch is in doubt: it stands at its switch with a failed try on record. A switch that failed
     * may still have committed: a commit that waited on a paused synchronous standby past the step's deadline (the
     * runner gave up on it, the JDBC driver ignores the interrupt, and it lands when the standby is back), or a commit
     * whose acknowledgement was lost with the store's connection. So such a switch is never tried again and never rolled
     * back blind: its next try only reads the placement ({@link SwitchFound}), and the switch transaction refuses to
     * write once a failed try is on record. (A controller killed after the commit recorded no failure: the resumed
     * switch finds the placement on the target and is done, {@link #switched}.)
     */
    public static boolean switchInDoubt(Take t) {
        return t.step() == TakeStep.SWITCH && t.problem() != null;
    }

    /**
     * Whether the store's placement, the module taken on {@code taken}, says {@code t}'s switch committed: it names the
     * target. Nothing but the switch moves a running module's placement there, whatever {@code mesh assign} did since.
     */
    public static boolean switched(Take t, String taken) {
        return t.to().equals(taken);
    }

    /**
     * After the switch step: forward when it went through, or when a switch in doubt is found committed (the target
     * holds the module's only current data and the names have moved: rolling back would delete that copy and start the
     * module there on an empty volume). Rolled back as any failure at the switch only when the placement is found not to
     * name the target: that switch never wrote, and none of this take's can now.
     */
    private static Take switchFound(Take t, Outcome o) {
        if (o instanceof SwitchFound f && !switched(t, f.taken())) {
            String why = t.problem() != null ? t.problem() : TakeStep.SWITCH.word() + ": it did not go through";
            return rollback(t, why + "; the placement has " + t.module() + (f.taken() == null ? " taken nowhere"
                    : " taken on " + f.taken()) + ", so the switch did not commit");
        }
        return t.at(TakeStep.PUSH);
    }

    /** A take's preflight found the source's volumes: a pre-copy next, or the fence (stop-and-copy), or the start. */
    private static Take preflighted(Take t, Outcome o) {
        Take next = t.withVolumes(o instanceof Preflighted p ? p.volumes() : t.volumes());
        return next.at(t.from() == null ? TakeStep.START : next.volumes().isEmpty() || t.stopAndCopy() ? TakeStep.FENCE
                : TakeStep.PRE_COPY);
    }

    /** Whether the take writes data onto the target (a copy from its source, or a restore's backup): a rollback deletes it. */
    static boolean copiesData(Take t) {
        return !t.volumes().isEmpty() && (t.from() != null || t.restoring());
    }

    /**
     * After a pre-copy pass of one volume: the next volume's pass, or once every volume had this pass, another pass
     * or the fence, as {@link PreCopy} decides.
     */
    private static Take preCopied(Take t, Outcome o) {
        if (!(o instanceof PreCopied c)) {
            return t;
        }
        Take next = t.withVolumes(t.volumes().stream().map(v -> v.name().equals(c.volume()) ? v.withPass(c.pass()) : v).toList());
        return preCopyNext(next);
    }

    /** Where a take stands in its pre-copy: the pass of a volume still to go, another pass, or the fence. */
    static Take preCopyNext(Take t) {
        if (t.nextToPreCopy(t.livePass()) != null) {
            return t.at(TakeStep.PRE_COPY);
        }
        return PreCopy.RULE.after(t.livePassTotals()).anotherPass() ? t.at(TakeStep.PRE_COPY) : t.at(TakeStep.FENCE);
    }

    /** The pass {@code t}'s pre-copy step carries out now (1-based), and the volume it copies. */
    public static int preCopyPass(Take t) {
        int n = t.livePass();
        return t.nextToPreCopy(n) != null && n > 0 ? n : n + 1;
    }

    private static Take copied(Take t, Outcome o) {
        if (!(o instanceof Copied c)) {
            return t;
        }
        List<Take.Volume> next = t.volumes().stream()
                .map(v -> !v.name().equals(c.volume()) ? v : c.pass() == null ? v.copiedAs(c.bytes(), c.files())
                        : v.withPass(c.pass())).toList();
        Take done = t.withVolumes(next);
        return done.nextToCopy() == null ? done.at(TakeStep.VERIFY) : done.at(TakeStep.COPY);
    }

    private static Take verified(Take t, Outcome o) {
        if (!(o instanceof Verified v)) {
            return t;
        }
        Take checked = t.withVolumes(v.volumes());
        return v.difference() == null ? checked.at(TakeStep.START)
                : rollback(checked, "verify: " + v.difference() + "; the copy on " + t.to() + " is deleted and "
                        + t.module() + " starts on " + t.from() + " again");
    }

    /**
     * A restore after its preflight: its restore when the module ran nowhere, its fence when the module's node answers.
     * When that node does not answer, its lose only if the operator said the node is down ({@link Take#sourceSaidDown});
     * otherwise the restore fails having changed nothing: a node that does not answer may be only cut off from the
     * controller with the module still running there, and a restore then would run it twice.
     */
    static Take restorePreflighted(Take t, Outcome o) {
        if (t.from() == null) {
            return t.at(TakeStep.RESTORE);
        }
        if (!(o instanceof SourceAnswers a) || a.answers()) {
            return t.at(TakeStep.FENCE);
        }
        return t.sourceSaidDown() ? t.at(TakeStep.LOSE) : failed(t, TakeWords.sourceUnanswered(t));
    }

    /**
     * The record after its current step failed. Before anything changed (preflight) the take fails;
     * before the switch it rolls back; a rollback step, and every step from the switch on, is tried
     * again (the failure is kept as the take's problem). A failed switch is kept as a problem too, its
     * outcome in doubt ({@link #switchInDoubt}): it is rolled back only once the store says it did not commit
     * ({@link SwitchFound}); a store that cannot be read leaves it waiting, its target's copy untouched.
     */
    static Take failed(Take t, String why) {
        TakeStep s = t.step();
        if (s == TakeStep.PREFLIGHT) {
            return t.withError("preflight: " + why).at(TakeStep.FAILED);
        }
        if (s.rollingBack() || s.ordinal() >= TakeStep.SWITCH.ordinal()) {
            return t.withProblem(s.word() + ": " + why);
        }
        return rollback(t, s.word() + ": " + why);
    }

    /** The first rollback step from where the take stands, with why it rolls back. */
    static Take rollback(Take t, String why) {
        TakeStep first = t.step().ordinal() >= TakeStep.START.ordinal() ? TakeStep.STOP_TARGET : TakeStep.UNFENCE;
        return t.withError(why).at(first);
    }

    /** The step the rollback began at: the word its error starts with ({@code copy: …}); null outside a rollback. */
    static TakeStep rolledBackFrom(Take t) {
        if (t.error() == null || t.error().indexOf(':') < 0) {
            return null;
        }
        try {
            return TakeStep.of(t.error().substring(0, t.error().indexOf(':')));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Whether the rollback began once the target may have run the module (at the start or the switch): it then
     * stops the target first and unfences the source last. Otherwise the source is unfenced first.
     */
    public static boolean targetStarted(Take t) {
        TakeStep from = rolledBackFrom(t);
        return from == TakeStep.START || from == TakeStep.SWITCH;
    }

    /**
     * Whether the rollback has a copy on the target to delete: the take got as far as copying a volume: a pass of
     * the pre-copy began (a failed first pass leaves a partial copy), or the copy after the fence did.
     */
    static boolean copyToDelete(Take t) {
        TakeStep from = rolledBackFrom(t);
        if (!copiesData(t) || from == null) {
            return false;
        }
        if (t.restoring()) {
            return from == TakeStep.RESTORE || from == TakeStep.START || from == TakeStep.SWITCH;
        }
        boolean preCopied = t.volumes().stream().anyMatch(v -> !v.passes().isEmpty());
        return from == TakeStep.PRE_COPY || (from == TakeStep.FENCE || from == TakeStep.TICKET) && preCopied
                || from.ordinal() >= TakeStep.COPY.ordinal() && from.ordinal() <= TakeStep.SWITCH.ordinal();
    }

    /** A rollback before the start whose target does not answer: ended, the partial copy left there until it answers. */
    private static Take left(Take t, Left l) {
        String volumes = String.join(", ", t.volumes().stream().map(Take.Volume::name).toList());
        return t.at(TakeStep.ROLLED_BACK).withProblem((t.problem() == null ? "" : t.problem() + "; ") + l.why()
                + ": the partial copy of " + t.module() + " (volume " + volumes + ") is left on " + t.to()
                + ", never started there, and deleted once its agent answers again");
    }

    /**
     * The record when its current step failed every try the runner gives it. A delete-copy after the source
     * was unfenced (a rollback before the start) ends the take rolled back: the module runs on the source
     * again, and the partial copy left on the target is never started there (that node was never sent a
     * declaration with the module) and is emptied by the next take into it (the agent's copy mark allows
     * that, docs/take.md "Copying onto the target"). Any other step waits for the operator as it stands.
     */
    public static Take gaveUp(Take t) {
        if (t.step() != TakeStep.DELETE_COPY || targetStarted(t)) {
            return t;
        }
        String volumes = String.join(", ", t.volumes().stream().map(Take.Volume::name).toList());
        return t.at(TakeStep.ROLLED_BACK).withProblem((t.problem() == null ? "delete-copy failed" : t.problem())
                + "; the partial copy of " + t.module() + " (volume " + volumes + ") is left on " + t.to()
                + ": it is never started there, and the next take into " + t.to() + " empties it");
    }

    /**
     * Whether the rollback fenced the module on the target (it rolls back from the start or the switch: its
     * error begins with that step's name), so that unfence lifts that fence too, after the target was sent a
     * declaration without the module. A fence an earlier take left there is kept.
     */
    public static boolean targetFenced(Take t) {
        return targetStarted(t);
    }

    /**
     * Whether the module may run on the source while the take stands at {@code step}: before the source's fence is
     * confirmed, and once the rollback has lifted it. Mid-step the fence may already be set, which is on the safe side.
     */
    public static boolean sourceMayRun(TakeStep step) {
        return step == TakeStep.PREFLIGHT || step == TakeStep.PRE_COPY || step == TakeStep.FENCE || step == TakeStep.ROLLED_BACK
                || step == TakeStep.FAILED;
    }

    /**
     * Whether the module may run on the source while {@code t} stands where it does: as {@link #sourceMayRun},
     * and also at a delete-copy after the source was unfenced (a rollback before the start, whose target never
     * ran the module and is never sent it).
     */
    public static boolean sourceMayRun(Take t) {
        return sourceMayRun(t.step()) || t.step() == TakeStep.DELETE_COPY && !targetStarted(t);
    }

    /** Whether the module may run on the target while {@code t} stands where it does: as {@link #targetMayRun}. */
    public static boolean targetMayRun(Take t) {
        return targetMayRun(t.step());
    }

    /** Whether the module may run on the target at {@code step}: from its start until the rollback confirmed it stopped. */
    public static boolean targetMayRun(TakeStep step) {
        return step.ordinal() >= TakeStep.START.ordinal() && step.ordinal() <= TakeStep.DONE.ordinal()
                || step == TakeStep.STOP_TARGET;
    }
}
