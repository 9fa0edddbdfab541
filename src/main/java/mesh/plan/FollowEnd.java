package mesh.plan;

import java.time.Duration;
import java.util.Optional;

/**
 * FollowEnd is the rule that ends {@code mesh logs --follow} on the agent: a follow reads one copy of a
 * component (a container id, a process's pid), so it ends when that copy is no longer the component's: it
 * was replaced (another id under the name), removed (nothing under the name), or it ended (its process
 * stopped and nothing took its place yet). A copy that is replaced has its output in the new copy's log,
 * which a new {@code mesh logs} shows; following on would show nothing more. A copy seen stopped is given
 * {@link #GRACE} before the follow ends saying so: a replace stops the old copy before the new one is made, and
 * "replaced" is the truer reason then.
 */
public final class FollowEnd {

    /** How long a stopped copy is waited for to be replaced or removed before the follow ends as stopped. */
    public static final Duration GRACE = Duration.ofSeconds(10);

    private FollowEnd() {
    }

    /**
     * Why the follow of {@code component}'s copy {@code followed} ends, or empty while it goes on:
     * {@code current} is the copy now under the component's name (empty: none), {@code running} whether it runs,
     * {@code stoppedFor} how long it has been seen not running or gone (a replace removes the old copy before
     * it makes the new one).
     */
    public static Optional<String> why(String component, String followed, Optional<String> current, boolean running,
                                       Duration stoppedFor) {
        boolean waited = stoppedFor.compareTo(GRACE) >= 0;
        if (current.isEmpty()) {
            return waited ? Optional.of("component " + component + " was removed") : Optional.empty();
        }
        if (!current.get().equals(followed)) {
            return Optional.of("component " + component + " was replaced (" + shortId(followed) + " is now "
                    + shortId(current.get()) + ")");
        }
        if (!running && waited) {
            return Optional.of("component " + component + " stopped (" + shortId(followed) + ")");
        }
        return Optional.empty();
    }

    private static String shortId(String id) {
        return id.length() > 12 && !id.startsWith("process:") ? id.substring(0, 12) : id;
    }
}
