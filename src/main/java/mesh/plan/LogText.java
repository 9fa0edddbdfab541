package mesh.plan;

/**
 * LogText reads one line of a container's output as the engine gives it with timestamps on: an RFC 3339
 * time with nanoseconds, a space, the text. Pure, so the splitting of a frame is tested without an engine.
 */
public final class LogText {

    /** Stamped is a line with the time the engine stamped it (null when it carried none). */
    public record Stamped(String time, String text) {
    }

    private LogText() {
    }

    /** The line split into its time and its text; a line without a leading time is all text. */
    public static Stamped split(String line) {
        int space = line.indexOf(' ');
        if (space >= 20 && Character.isDigit(line.charAt(0)) && line.charAt(4) == '-' && line.charAt(10) == 'T') {
            return new Stamped(line.substring(0, space), line.substring(space + 1));
        }
        return new Stamped(null, line);
    }

    /** The text without its line end ({@code \n} or {@code \r\n}). */
    public static String chomp(String text) {
        int end = text.length();
        if (end > 0 && text.charAt(end - 1) == '\n') {
            end--;
        }
        if (end > 0 && text.charAt(end - 1) == '\r') {
            end--;
        }
        return text.substring(0, end);
    }
}
