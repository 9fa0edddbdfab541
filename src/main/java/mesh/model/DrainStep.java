package mesh.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * DrainStep is the step a drain ({@code mesh drain}, docs/drain.md) carries out next: cordon the node, place its
 * modules ({@code mesh.plan.DrainPlacement}), move them by takes K at a time, then done. A drain does not fail as a
 * whole when a module's take fails: that module is recorded with its reason and the others go on; it fails only when
 * its own steps cannot be carried out (the node is gone).
 */
public enum DrainStep {
    CORDON, PLACE, MOVE, DONE, FAILED;

    @JsonValue
    public String word() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static DrainStep of(String word) {
        return valueOf(word.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public boolean ended() {
        return this == DONE || this == FAILED;
    }

    public OperationState state() {
        return this == DONE ? OperationState.DONE : this == FAILED ? OperationState.FAILED : OperationState.RUNNING;
    }

    @Override
    public String toString() {
        return word();
    }
}
