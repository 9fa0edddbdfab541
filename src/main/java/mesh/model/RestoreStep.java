package mesh.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * RestoreStep is where a restore stands (docs/backup.md, "Restore"): the step it carries out next. A restore is a take
 * whose data comes from a backup: its steps are a take's, with LOSE (the source does not answer: its copy is marked
 * lost, to be fenced when its node answers again) and RESTORE (the target writes the backup) in place of the copy.
 */
public enum RestoreStep {
    PREFLIGHT, FENCE, LOSE, RESTORE, START, SWITCH, PUSH, OLD_COPY, DONE,
    STOP_TARGET, DELETE_COPY, UNFENCE, ROLLED_BACK, FAILED;

    @JsonValue
    public String word() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static RestoreStep of(String word) {
        return valueOf(word.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public boolean ended() {
        return this == DONE || this == ROLLED_BACK || this == FAILED;
    }

    public boolean rollingBack() {
        return this == STOP_TARGET || this == DELETE_COPY || this == UNFENCE;
    }

    /** The restore's state: running, done, rolled-back or failed. */
    public OperationState state() {
        return ended() ? OperationState.valueOf(name()) : OperationState.RUNNING;
    }
}
