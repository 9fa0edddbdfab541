package mesh.plan;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * PreCopy is the rule of a take's pre-copy: how many passes copy the volumes while the module still runs,
 * before the fence stops it and the delta sends the rest. Each pass after the first sends only what changed
 * since the one before, so passes shrink while the module writes slower than the copy; the downtime is then
 * the last, small delta. Pure: the passes done (their totals over all volumes) come in, the decision goes out.
 *
 * <p>Another pass is worth it unless the last one was quick (what the module wrote meanwhile is small, and the
 * delta after the fence sends it), or the passes do not shrink (the module writes about as fast as the copy:
 * another pass would send as much again, and the delta as much as it would), or {@link #maxPasses} ran.
 */
public record PreCopy(int maxPasses, Duration quick, double shrink) {

    /** The rule a take uses: at most 4 passes; a pass of a second or less is quick; a pass must halve the one before. */
    public static final PreCopy RULE = new PreCopy(4, Duration.ofSeconds(1), 0.5);

    /** Decision is another pass, or the fence, with why in the operator's words. */
    public record Decision(boolean anotherPass, String why) {
    }

    /** What follows the live passes {@code done} (their totals, in order; empty: none ran yet). */
    public Decision after(List<Take.Pass> done) {
        if (done.isEmpty()) {
            return new Decision(true, "pass 1 copies every volume while the module runs");
        }
        int n = done.size();
        Take.Pass last = done.get(n - 1);
        if (last.seconds() <= quick.toMillis() / 1000.0) {
            return new Decision(false, "pass " + n + " took " + seconds(last.seconds())
                    + ": what the module wrote meanwhile is small, the delta after the fence sends it");
        }
        if (n >= 2 && last.bytes() > shrink * done.get(n - 2).bytes()) {
            return new Decision(false, "pass " + n + " sent " + Bytes.human(last.bytes()) + " after pass " + (n - 1)
                    + "'s " + Bytes.human(done.get(n - 2).bytes()) + ": the module writes about as fast as the copy,"
                    + " another pass is not worth it");
        }
        if (n >= maxPasses) {
            return new Decision(false, n + " passes ran, the most a take makes");
        }
        return new Decision(true, "pass " + n + " took " + seconds(last.seconds()) + ": pass " + (n + 1)
                + " sends what changed meanwhile");
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.1f s", s);
    }
}
