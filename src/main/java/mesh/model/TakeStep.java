package mesh.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * TakeStep is where a take stands: the step it carries out next (docs/take.md). A take's record
 * holds it, and it is written before a step's effects are trusted, so a controller that dies mid-step
 * redoes that step: every step is idempotent. The first ten go forward; STOP_TARGET, DELETE_COPY
 * and UNFENCE roll back; DONE, ROLLED_BACK and FAILED end a take.
 */
public enum TakeStep {
    PREFLIGHT, PRE_COPY, FENCE, TICKET, COPY, VERIFY, START, SWITCH, PUSH, OLD_COPY, DONE,
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
