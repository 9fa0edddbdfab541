package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * PushTimes keeps how long the controller's pushes took to record and send their declarations
 * ({@link PushSender}), for its metrics: the last one's duration, and their count and seconds in all
 * since the controller started (a Prometheus summary without quantiles: rate of one over the other is
 * the mean).
 */
@ApplicationScoped
public class PushTimes {

    private double last = Double.NaN;
    private long count;
    private double seconds;

    /** What is known now: the last push's seconds (NaN before the first), pushes and seconds in all. */
    public record Seen(double last, long count, double seconds) {
    }

    synchronized void pushed(long nanos) {
        last = nanos / 1e9;
        count++;
        seconds += last;
    }

    synchronized Seen seen() {
        return new Seen(last, count, seconds);
    }
}
