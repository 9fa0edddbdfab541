package mesh.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** DrainModuleState is what became of one module of a drain: waiting for its take, moved, failed (its take rolled back or did not begin), or left by the placement. */
public enum DrainModuleState {
    PENDING, MOVED, FAILED, LEFT;

    @JsonValue
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return word();
    }
}
