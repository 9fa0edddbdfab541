package mesh.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A {@link Poll.Clock} for tests of pure logic: time moves only when a wait pauses, and each pause is remembered. */
public final class FakePollClock implements Poll.Clock {

    public long now;
    public final List<Duration> pauses = new ArrayList<>();

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void pause(Duration d) {
        pauses.add(d);
        now += d.toNanos();
    }
}
