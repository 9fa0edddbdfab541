package mesh.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * BackupStep is where a backup stands: the step it carries out next (docs/backup.md). FENCE, COPY, UNFENCE and
 * RETAIN go forward (a backup with a command runs no fence and no unfence); DONE and FAILED end it.
 */
public enum BackupStep {
    FENCE, COPY, UNFENCE, RETAIN, DONE, FAILED;

    @JsonValue
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static BackupStep of(String word) {
        return valueOf(word.toUpperCase(Locale.ROOT));
    }

    public boolean ended() {
        return this == DONE || this == FAILED;
    }

    /** The backup's state: running, done or failed. */
    public OperationState state() {
        return ended() ? OperationState.valueOf(name()) : OperationState.RUNNING;
    }
}
