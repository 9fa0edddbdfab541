package mesh.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * TakeStep is where a take stands: the step it carries out next (docs/take.md). A take's record
 * holds it, and it is written before a step's effects are trusted, so a controller that dies mid-step
 * redoes that step: every step is idempotent. The steps up to DONE go forward; STOP_TARGET, DELETE_COPY
 * and UNFENCE roll back; DONE, ROLLED_BACK and FAILED end a take.
 *
 * <p>A restore is a take whose data comes from a backup (docs/backup.md, "Restore"): in place of the pre-copy, the
 * ticket, the copy and the verify it has LOSE (its source does not answer: the copy there is marked lost) and RESTORE
 * (the target writes the backup and checks it against the backup's manifest). A take from a node never stands at
 * either; their words are the ones restores always had, so a restore's record and view read as before.
 */
public enum TakeStep {
    PREFLIGHT, PRE_COPY, FENCE, LOSE, TICKET, COPY, RESTORE, VERIFY, START, SWITCH, PUSH, OLD_COPY, DONE,
    STOP_TARGET, DELETE_COPY, UNFENCE, ROLLED_BACK, FAILED;

    /** Its name in the store, the API and the operator's lines: {@code old-copy}, {@code stop-target}. */
    @JsonValue
    public String word() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The step with that {@link #word}. */
    public static TakeStep of(String word) {
        return valueOf(word.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public boolean ended() {
        return this == DONE || this == ROLLED_BACK || this == FAILED;
    }

    public boolean rollingBack() {
        return this == STOP_TARGET || this == DELETE_COPY || this == UNFENCE;
    }

    /** The take's state as the store and {@code mesh status} say it: running, done, rolled-back or failed. */
    public OperationState state() {
        return ended() ? OperationState.valueOf(name()) : OperationState.RUNNING;
    }

    @Override
    public String toString() {
        return word();
    }
}
