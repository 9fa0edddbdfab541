package mesh.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * OperationState is where a take, a backup or a restore stands as a whole: running, or ended done, rolled back
 * or failed. It crosses the wire and the store by its word ({@code running}, {@code rolled-back}), so older
 * CLIs read it as the string they always did; the CLI compares it, never its word.
 */
public enum OperationState {
    RUNNING, DONE, ROLLED_BACK, FAILED,
    /** Not an operation: the plan a {@code --dry-run} shows (its step is the one it would begin with). */
    DRY_RUN;

    /** Its word on the wire: {@code running}, {@code done}, {@code rolled-back}, {@code failed}. */
    @JsonValue
    public String word() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The state with that {@link #word}. */
    public static OperationState of(String word) {
        return valueOf(word.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public boolean ended() {
        return this == DONE || this == ROLLED_BACK || this == FAILED;
    }

    @Override
    public String toString() {
        return word();
    }
}
