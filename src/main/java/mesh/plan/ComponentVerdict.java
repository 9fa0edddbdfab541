package mesh.plan;

import java.time.Duration;
import java.time.Instant;
import mesh.model.ComponentSpec;
import mesh.model.HealthCheck;
import mesh.model.Vitals;
import mesh.model.ComponentState;

/**
 * ComponentVerdict is where one declared component stands, decided from what the agent saw: a
 * component is {@code running} only when it runs and its health check passes. First things first:
 *
 * <ol>
 *   <li>{@code failing}: the last apply of it failed (the reason is the engine's or supervisor's, whole);</li>
 *   <li>{@code missing} / {@code outdated}: nothing runs for it, or something built from another spec;</li>
 *   <li>{@code crash-looping}: restarted {@link #CRASH_LOOP_RESTARTS} times or more, and down now or up
 *       for less than {@link #SETTLED}: a restart will not help, the operator must look;</li>
 *   <li>{@code stopped}: not running (and not looping);</li>
 *   <li>{@code starting}: the last look saw it up for less than {@link #MIN_UP} (a process that exits at
 *       once is up for an instant: that is no proof it runs), or its health check has not passed yet,
 *       within its timeout since it started;</li>
 *   <li>{@code unhealthy}: its health check does not pass, past that timeout.</li>
 * </ol>
 *
 * Pure: the time is passed in.
 */
public record ComponentVerdict(ComponentState state, String reason) {

    /** Restarts after which a component that keeps ending is crash-looping. */
    public static final int CRASH_LOOP_RESTARTS = 3;
    /** How long a restarted component must stay up before its restarts stop counting as a loop. */
    public static final Duration SETTLED = Duration.ofSeconds(30);
    /** How long the agent must have seen a component up before it counts as running. */
    public static final Duration MIN_UP = Duration.ofSeconds(3);

    /**
     * The verdict for {@code spec}. {@code observed} says whether anything runs for it at all and
     * {@code outdated} whether it was built from another spec; {@code vitals} may be null (not looked
     * at yet: judged by running alone); {@code failure} is the last apply's reason, or null.
     */
    public static ComponentVerdict judge(ComponentSpec spec, boolean observed, boolean outdated, boolean running,
                                         Vitals vitals, String failure, Instant now) {
        if (failure != null) {
            return new ComponentVerdict(ComponentState.FAILING, failure);
        }
        if (!observed) {
            return new ComponentVerdict(ComponentState.MISSING, null);
        }
        if (outdated) {
            return new ComponentVerdict(ComponentState.OUTDATED, null);
        }
        if (vitals == null) {
            return new ComponentVerdict(running ? ComponentState.RUNNING : ComponentState.STOPPED, null);
        }
        boolean freshlyStarted = vitals.startedAt() == null || vitals.startedAt().plus(SETTLED).isAfter(now);
        if (vitals.restarts() >= CRASH_LOOP_RESTARTS && (!vitals.running() || freshlyStarted)) {
            if (vitals.running() && vitals.lastExit() == null) {
                // up again and how it ended not seen yet: the next look (a second later) says, so the verdict names it
                return new ComponentVerdict(ComponentState.STARTING, "restarted " + vitals.restarts()
                        + " times; how it last ended is not seen yet");
            }
            return new ComponentVerdict(ComponentState.CRASH_LOOPING, vitals.restarts() + " restarts"
                    + (vitals.lastExit() == null ? "" : ", last " + vitals.lastExit()));
        }
        if (!vitals.running()) {
            return new ComponentVerdict(ComponentState.STOPPED, vitals.lastExit() == null ? null : "last " + vitals.lastExit());
        }
        if (vitals.seenAt() != null && vitals.startedAt() != null
                && Duration.between(vitals.startedAt(), vitals.seenAt()).compareTo(MIN_UP) < 0) {
            return new ComponentVerdict(ComponentState.STARTING, vitals.healthFailure() != null ? vitals.healthFailure()
                    : "up for less than " + MIN_UP.toSeconds() + "s at the last look");
        }
        if (vitals.healthFailure() == null) {
            return new ComponentVerdict(ComponentState.RUNNING, null);
        }
        HealthCheck check = spec.health();
        Duration timeout = Duration.ofSeconds(check == null ? HealthCheck.DEFAULT_TIMEOUT_SECONDS : check.timeout());
        if (vitals.startedAt() != null && vitals.startedAt().plus(timeout).isAfter(now)) {
            return new ComponentVerdict(ComponentState.STARTING, vitals.healthFailure());
        }
        return new ComponentVerdict(ComponentState.UNHEALTHY, "health check not passing after "
                + timeout.toSeconds() + "s: " + vitals.healthFailure());
    }

    /** Whether waiting cannot help: the apply failed, or it keeps crashing. */
    public boolean definite() {
        return state == ComponentState.FAILING || state == ComponentState.CRASH_LOOPING;
    }
}
