package mesh.model;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DurationText is the one way mesh reads a duration an operator writes, wherever it is written: a flag
 * ({@code --timeout}, {@code --since}), a manifest ({@code stop-timeout}, {@code backup.every}) or a
 * setting ({@code MESH_HOST_INTERVAL}). A number and its unit, {@code d}, {@code h}, {@code m}, {@code s}
 * or {@code ms}, or several from the largest down ({@code 1h30m}); a bare number is seconds, as the
 * flags that took seconds always read it. Each place bounds the value itself.
 */
public final class DurationText {

    /** What a duration looks like, for the messages that refuse one. */
    public static final String EXPECTED = "a duration like 30s, 5m, 1h or 1h30m (a bare number is seconds)";

    private static final Pattern BARE = Pattern.compile("[0-9]{1,12}");
    private static final Pattern PARTS = Pattern.compile(
            "(?:([0-9]{1,9})d)?(?:([0-9]{1,9})h)?(?:([0-9]{1,9})m(?!s))?(?:([0-9]{1,12})s)?(?:([0-9]{1,12})ms)?");
    private static final long[] MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};

    private DurationText() {
    }

    /** The duration {@code text} writes; IllegalArgumentException saying what is taken when it is none. */
    public static Duration parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (BARE.matcher(t).matches()) {
            return Duration.ofSeconds(Long.parseLong(t));
        }
        Matcher m = PARTS.matcher(t);
        if (t.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("'" + (text == null ? "" : text) + "' is not " + EXPECTED);
        }
        long millis = 0;
        try {
            for (int i = 0; i < MILLIS.length; i++) {
                if (m.group(i + 1) != null) {
                    millis = Math.addExact(millis, Math.multiplyExact(Long.parseLong(m.group(i + 1)), MILLIS[i]));
                }
            }
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too long a duration");
        }
        return Duration.ofMillis(millis);
    }

    /** Why {@code text} is not a duration, or null when it is one. */
    public static String problem(String text) {
        try {
            parse(text);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * A duration as an operator writes it, in hours and smaller units that keep it exact ({@code 5m}, {@code 1h30m},
     * {@code 48h}, {@code 1s500ms}, {@code 0s}), so a message shows a value as a flag takes it.
     */
    public static String words(Duration d) {
        long millis = d.toMillis();
        if (millis == 0) {
            return "0s";
        }
        StringBuilder b = new StringBuilder();
        String[] units = {"d", "h", "m", "s", "ms"};
        for (int i = 1; i < MILLIS.length; i++) {
            long n = millis / MILLIS[i];
            if (n > 0) {
                b.append(n).append(units[i]);
                millis -= n * MILLIS[i];
            }
        }
        return b.toString();
    }
}
