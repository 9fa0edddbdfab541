package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import mesh.model.TakeStep;
import mesh.plan.Operation.Done;

/**
 * TakeWords says a take's steps in the operator's words (docs/take.md, docs/backup.md "Restore"): the step under way
 * ({@link #describe}, which progress lines and {@code mesh status} show) and, for a dry run, every step ahead as
 * {@link TakePlan} would decide them if each went through. Pure.
 */
public final class TakeWords {

    private TakeWords() {
    }

    /** What the take (or restore) does from where it stands, in the operator's words: {@code mesh take --dry-run} prints it. */
    public static List<String> stepsAhead(Take t) {
        List<String> lines = new ArrayList<>();
        Take at = t;
        while (!at.step().ended()) {
            lines.add(describe(at));
            at = TakePlan.after(at, at.step() == TakeStep.PRE_COPY
                    ? new TakePlan.PreCopied(at.nextToPreCopy(TakePlan.preCopyPass(at)).name(), new Take.Pass(true, at.nextToPreCopy(TakePlan.preCopyPass(at)).bytes(),
                            at.nextToPreCopy(TakePlan.preCopyPass(at)).files(), 0, 0, 0))
                    : at.step() == TakeStep.COPY && at.nextToCopy() != null
                    ? new TakePlan.Copied(at.nextToCopy().name(), at.nextToCopy().bytes(), at.nextToCopy().files())
                    : at.step() == TakeStep.VERIFY ? new TakePlan.Verified(at.volumes(), null) : new Done());
        }
        return lines;
    }

    /** The current step in words. */
    public static String describe(Take t) {
        String m = t.module();
        return switch (t.step()) {
            case PREFLIGHT -> "preflight: " + t.to() + "'s agent answers and has room for the data";
            case FENCE -> "fence: stop " + m + " on " + t.from() + " and have its agent refuse to start it (epoch "
                    + t.epoch() + ")";
            case TICKET -> "ticket: " + t.from() + "'s agent gives a read ticket for " + m + "'s volumes";
            case PRE_COPY -> {
                int n = TakePlan.preCopyPass(t);
                Take.Volume v = t.nextToPreCopy(n);
                yield "pre-copy: pass " + n + " of volume " + v.name() + (n == 1 ? " (" + Bytes.human(v.bytes()) + ")"
                        : ", what changed since pass " + (n - 1)) + " from " + t.from() + " to " + t.to() + " while " + m
                        + " runs there, agent to agent";
            }
            case COPY -> t.nextToCopy().livePasses() > 0
                    ? "copy: what changed in volume " + t.nextToCopy().name() + " since the pre-copy, from " + t.from()
                            + " to " + t.to() + " (" + m + " stopped)"
                    : "copy: volume " + t.nextToCopy().name() + " (" + Bytes.human(t.nextToCopy().bytes()) + ") from "
                            + t.from() + " to " + t.to() + ", agent to agent";
            case LOSE -> "lose: " + t.from() + " does not answer and was said down (--down): its copy of " + m
                    + " is marked lost, and fenced there the first"
                    + " time its agent answers again, so it never starts there again";
            case RESTORE -> "restore: " + t.to() + " writes backup " + t.fromBackup().backup() + " (" + String.join(", ",
                    t.volumes().stream().map(Take.Volume::name).toList()) + ") from the registry and checks every file against"
                    + " its manifest";
            case VERIFY -> "verify: every file's manifest on " + t.from() + " and on " + t.to() + " must match";
            case START -> "start: " + m + " on " + t.to() + ", healthy before anything moves";
            case SWITCH -> "switch: placement, " + m + ".internal and its routes move to " + t.to() + " in one transaction";
            case PUSH -> "push: " + t.to() + (t.from() == null ? "" : ", " + t.from())
                    + " and the nodes whose components bind " + m + "'s names (binders replaced, nothing else)";
            case OLD_COPY -> "old copy: " + t.from() + " keeps its copy, labelled as left by the take at epoch " + t.epoch()
                    + " (mesh take --forget-old " + m + " removes it)";
            case STOP_TARGET -> "stop-target: stop " + m + " on " + t.to();
            case DELETE_COPY -> "delete-copy: delete the copy this take made on " + t.to()
                    + (TakePlan.targetStarted(t) ? "" : " (" + m + " runs on " + t.from() + " again already)");
            case UNFENCE -> "unfence: lift the fence" + (t.from() == null ? "" : " on " + t.from() + ", which starts " + m
                    + " there again");
            case DONE, ROLLED_BACK, FAILED -> t.step().word();
        };
    }

    /**
     * Why a restore does not go on when the module's node does not answer and the operator did not say it is down
     * ({@code mesh restore --down NODE}), and the command that says so.
     */
    public static String sourceUnanswered(Take t) {
        String m = t.module();
        return "node " + t.from() + " does not answer: it may be down, or only cut off from the controller with " + m
                + " still running there, and a restore now would run " + m + " twice. If " + t.from() + " is down (powered"
                + " off, crashed, its disk lost), say so: 'mesh restore " + m + " " + t.fromBackup().backup() + " --to " + t.to()
                + " --down " + t.from() + "' marks its copy lost, fenced there the moment its agent answers again; nothing"
                + " was changed";
    }

    /**
     * What a restore does from its preflight, for {@code mesh restore --dry-run}: whether its source answers decides
     * between its fence and its lose, which a dry run cannot learn by going through them.
     */
    public static List<String> restoreAhead(Take t, boolean sourceAnswers) {
        List<String> lines = new ArrayList<>();
        Take at = TakePlan.after(t, new TakePlan.SourceAnswers(sourceAnswers));
        while (!at.step().ended()) {
            lines.add(describe(at));
            at = TakePlan.after(at, new Done());
        }
        if (at.step() == TakeStep.FAILED) {
            lines.add("refused: " + at.error());
        }
        return lines;
    }
}
