package mesh.plan;

import java.time.Duration;
import java.util.List;
import mesh.model.InvalidInput;

/**
 * StatusWait is when an agent answers {@code GET /v1/status?generation=G&wait=30s}: a client that pushed generation G
 * asks once and hears back when there is news, instead of asking again every few milliseconds (each such question
 * costs a TLS handshake on both sides, CPU the engine needed while it starts containers; docs/benchmarks.md,
 * "host-vs-compose"). The answer comes at once when G is applied and the engine matched it, or when the agent holds no
 * declaration as new as G (nothing to wait for: a push that was refused, or not sent yet); otherwise at the end of the
 * first pass over G or newer that ends after the question came, whatever it achieved (the client reads the status and
 * may ask again), and at the latest after the wait. Pure: the agent's counters come in as values.
 */
public record StatusWait(long generation, Duration upTo) {

    /** The longest wait a client may ask for; a longer one is refused, so no request is held for ever. */
    public static final Duration LONGEST = Duration.ofSeconds(60);

    /** What the agent knows at one moment: the newest accepted, applied and converged, and the last pass that ended. */
    public record Seen(long desired, long applied, boolean converged, long passesEnded, long lastPassGeneration) {
    }

    /**
     * The wait a client asked for: {@code generation} a number, {@code wait} a duration ({@code 30s}, {@code 500ms};
     * {@link mesh.model.DurationText}) of at most {@link #LONGEST}; a missing wait is no wait.
     */
    public static StatusWait parse(String generation, String wait) {
        long g;
        try {
            g = Long.parseLong(generation.strip());
        } catch (NumberFormatException e) {
            throw new InvalidInput(List.of("generation must be a number, got '" + generation + "'"));
        }
        Duration d;
        try {
            d = wait == null || wait.isBlank() ? Duration.ZERO : mesh.model.DurationText.parse(wait);
        } catch (IllegalArgumentException e) {
            throw new InvalidInput(List.of("wait: " + e.getMessage()));
        }
        if (d.isNegative() || d.compareTo(LONGEST) > 0) {
            throw new InvalidInput(List.of("wait must be from 0s to " + LONGEST.toSeconds() + "s, got '" + wait + "'"));
        }
        return new StatusWait(g, d);
    }

    /** Whether the status is answered now, given what was seen when the question came ({@code asked}) and now. */
    public boolean answerNow(Seen asked, Seen now) {
        if (now.applied() >= generation && now.converged()) {
            return true;   // done
        }
        if (now.desired() < generation) {
            return true;   // no such generation here: waiting would only hold the client
        }
        return now.passesEnded() > asked.passesEnded() && now.lastPassGeneration() >= generation;
    }
}
