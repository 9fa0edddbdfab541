package mesh.host.process;

import java.time.Duration;

/**
 * Backoff is how long the supervisor waits before it starts a process that ended again: {@code base} after
 * the first quick failure, doubling with each further one, never more than {@code cap}. A run that lasted
 * {@code stableAfter} or longer was not a quick failure: the count starts again at one.
 */
public record Backoff(Duration base, Duration cap, Duration stableAfter) {

    public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofSeconds(60));

    /** The wait before the next start after {@code failures} consecutive quick failures (1 → base). */
    public Duration delay(int failures) {
        if (failures <= 0) {
            return Duration.ZERO;
        }
        int shift = Math.min(failures - 1, 30);
        long millis = base.toMillis() << shift;
        return millis <= 0 || millis > cap.toMillis() ? cap : Duration.ofMillis(millis);
    }

    /** The failure count after a run of {@code ran}, given the count before it. */
    public int failuresAfter(int before, Duration ran) {
        return ran.compareTo(stableAfter) >= 0 ? 1 : before + 1;
    }
}
