package mesh.host;

import java.time.Duration;
import java.util.Optional;
import mesh.plan.FollowEnd;

/**
 * FollowWatch is how a follow of a component's output ({@code mesh host logs --follow}, {@link ComponentLogs})
 * learns that the copy it follows is gone: it applies {@link FollowEnd} at most once a
 * {@link ComponentLogs#CHECK}, counting how long the copy has not run.
 */
final class FollowWatch {

    /** Copy is what is under a component's name now: its id (empty: nothing) and whether it runs. */
    record Copy(Optional<String> id, boolean running) {
    }

    private final String component;
    private final String followed;
    private final java.util.function.Supplier<Copy> look;
    private long lastCheck;
    private long downSince;

    FollowWatch(String component, String followed, java.util.function.Supplier<Copy> look) {
        this.component = component;
        this.followed = followed;
        this.look = look;
    }

    Optional<String> check() {
        long now = System.nanoTime();
        if (lastCheck != 0 && now - lastCheck < ComponentLogs.CHECK.toNanos()) {
            return Optional.empty();
        }
        lastCheck = now;
        Copy c = look.get();
        boolean up = c.running() && c.id().map(followed::equals).orElse(false);
        if (up) {
            downSince = 0;
        } else if (downSince == 0) {
            downSince = now;
        }
        Duration down = downSince == 0 ? Duration.ZERO : Duration.ofNanos(now - downSince);
        return FollowEnd.why(component, followed, c.id(), c.running(), down);
    }
}
