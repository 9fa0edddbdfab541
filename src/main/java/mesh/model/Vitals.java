package mesh.model;

import java.time.Instant;

/**
 * Vitals is what the agent saw of one component beyond its spec at its last look: whether it runs,
 * how often its engine (restart policy) or supervisor restarted it, how it last ended, since when it
 * runs, and its health check's last answer. It exists so that "running" can mean "running and
 * healthy", and a crash loop can be told from a slow start (plan/ComponentVerdict decides).
 *
 * @param running       whether its process runs now
 * @param restarts      restarts since it was created (a container's: the agent's count, or the engine's RestartCount
 *                      when higher; a process's: the supervisor's count)
 * @param lastExit      how it last ended ({@code exit code 1}, {@code signal 9}), or null if it never did
 * @param startedAt     when its current run began, or null when unknown
 * @param healthFailure why its health check did not pass at the last look; null when it passed, or
 *                      when it has no check, or when it was not asked (not running)
 * @param seenAt        when the agent looked (null: unknown)
 */
public record Vitals(boolean running, int restarts, String lastExit, Instant startedAt, String healthFailure,
                     Instant seenAt) {

    /** Vitals not yet stamped with the time of the look. */
    public Vitals(boolean running, int restarts, String lastExit, Instant startedAt, String healthFailure) {
        this(running, restarts, lastExit, startedAt, healthFailure, null);
    }

    /** These vitals with the health check's answer (null: it passed). */
    public Vitals withHealth(String failure) {
        return new Vitals(running, restarts, lastExit, startedAt, failure, seenAt);
    }

    /**
     * These vitals, keeping how it last ended from the {@code previous} look when this look could not
     * tell (a container that runs again does not say) and it has not been restarted fewer times since.
     */
    public Vitals orLastExitOf(Vitals previous) {
        if (lastExit != null || previous == null || previous.lastExit() == null || previous.restarts() > restarts) {
            return this;
        }
        return new Vitals(running, restarts, previous.lastExit(), startedAt, healthFailure, seenAt);
    }

    /** These vitals with at least {@code counted} restarts (a count the agent keeps beside the engine's). */
    public Vitals withRestartsAtLeast(int counted) {
        return counted <= restarts ? this : new Vitals(running, counted, lastExit, startedAt, healthFailure, seenAt);
    }

    /** These vitals, as seen at {@code at}. */
    public Vitals seenAt(Instant at) {
        return new Vitals(running, restarts, lastExit, startedAt, healthFailure, at);
    }
}
