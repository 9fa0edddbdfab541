package mesh.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * ProcessState is where a supervised process (a {@code bundle:} component) stands, as its supervisor
 * says: running; restarting (it ended, the next start is due); failed (it could not be launched,
 * retried like a restart); exited (stopped on purpose, not restarted until applied again). In JSON,
 * its lower-case name.
 */
public enum ProcessState {
    RUNNING, RESTARTING, FAILED, EXITED;

    /** Whether the module counts as running here: a process that restarts is only waiting for its next start. */
    public boolean runs() {
        return this == RUNNING || this == RESTARTING;
    }

    @JsonValue
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return json();
    }
}
