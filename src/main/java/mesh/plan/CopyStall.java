package mesh.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * CopyStall is the rule that a copy which still talks but moves no data has stalled: its bytes did not grow
 * for {@link #window}. A target that sends its progress lines while the source sends nothing (a source agent
 * stopped, a link that dropped without a reset) would otherwise keep a take at its copy step for ever, with
 * the module down. Pure: the samples and the time come in; the caller cuts the copy.
 */
public record CopyStall(Duration window) {

    /** Sample is what one progress line said and when it came: the bytes copied so far. */
    public record Sample(Instant at, long bytes) {
    }

    /**
     * When the copy last moved: the time of the sample where its bytes last grew, or of the first sample
     * when they never did; null without samples. Samples come in time order.
     */
    public static Instant lastMoved(List<Sample> samples) {
        if (samples.isEmpty()) {
            return null;
        }
        Instant moved = samples.get(0).at();
        for (int i = 1; i < samples.size(); i++) {
            if (samples.get(i).bytes() > samples.get(i - 1).bytes()) {
                moved = samples.get(i).at();
            }
        }
        return moved;
    }

    /** Whether the copy stalled as of {@code now}: no growth of its bytes for {@link #window} or longer. */
    public boolean stalled(List<Sample> samples, Instant now) {
        Instant moved = lastMoved(samples);
        return moved != null && !now.isBefore(moved.plus(window));
    }

    /**
     * The samples a caller needs to keep to get the same answers later: where the bytes last grew and the
     * latest; so a copy of hours keeps two samples, not one a second.
     */
    public static List<Sample> kept(List<Sample> samples) {
        if (samples.size() <= 2) {
            return List.copyOf(samples);
        }
        Instant moved = lastMoved(samples);
        Sample at = samples.stream().filter(s -> s.at().equals(moved)).findFirst().orElseThrow();
        Sample last = samples.get(samples.size() - 1);
        return at == last ? List.of(last) : List.of(at, last);
    }

    /** The rule in the operator's words: {@code no byte of volume data for 45 s (still at 12.3 MB)}. */
    public String describe(String volume, List<Sample> samples) {
        long at = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).bytes();
        return "no byte of volume " + volume + " was copied for " + window.toSeconds() + " s (still at "
                + Bytes.human(at) + ")";
    }
}
