package mesh.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * ComponentState is where a declared component stands on its node, as the agent reports it
 * (mesh.plan.ComponentVerdict decides it; wire.HostStatus carries it): running means running and
 * healthy. In JSON, its lower-case name with a dash ({@code crash-looping}). It lives in the model, not
 * in the wire record, so the pure verdict does not depend on the wire.
 */
public enum ComponentState {
    RUNNING, STARTING, UNHEALTHY, CRASH_LOOPING, FAILING, STOPPED, MISSING, OUTDATED,
    /** Its module is fenced here by a take (docs/take.md): kept stopped whatever the declaration says. */
    FENCED;

    @JsonValue
    public String json() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String toString() {
        return json();
    }
}
