package mesh.plan;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import mesh.model.InvalidInput;

/**
 * LogQuery is what {@code mesh logs} asks of a component's output: from when ({@code since}, null: from the
 * start that is kept), how many of the last lines ({@code tail}, null: all that are kept) and whether to keep
 * following. Parsed here once, for the CLI and both servers, so the three read {@code --since} alike.
 */
public record LogQuery(Instant since, Integer tail, boolean follow) {

    /** The most lines {@code --tail} may ask for: a process's tail is gathered in memory before it is sent. */
    public static final int MOST_TAIL = 10_000;

    public LogQuery {
        if (tail != null && (tail < 0 || tail > MOST_TAIL)) {
            throw new InvalidInput(List.of("--tail must be 0 to " + MOST_TAIL + ", got " + tail));
        }
    }

    /**
     * The instant {@code --since} names: a duration back from {@code now} ({@link mesh.model.DurationText}: {@code 90s},
     * {@code 5m}, {@code 2h}, {@code 1d}, {@code 1h30m}, a bare number in seconds) or an instant ({@code 2026-12-01T10:00:00Z}, or with an offset); null for null.
     */
    public static Instant since(String text, Instant now) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String t = text.strip();
        if (mesh.model.DurationText.problem(t) == null) {
            try {
                return now.minus(mesh.model.DurationText.parse(t));
            } catch (java.time.DateTimeException | ArithmeticException e) {
                throw bad(text);
            }
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(t).toInstant();
            } catch (DateTimeParseException e2) {
                throw bad(text);
            }
        }
    }

    /** The number {@code --tail} gives, or null for null. */
    public static Integer tail(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new InvalidInput(List.of("--tail must be a number of lines, got '" + text + "'"));
        }
    }

    /** The query as a server reads it back: {@code since} as an instant, so the CLI's clock decides "5m ago". */
    public static LogQuery of(String since, String tail, String follow, Instant now) {
        return new LogQuery(since(since, now), tail(tail), "true".equals(follow));
    }

    /** The query string that carries this query ({@code since=…&tail=…&follow=true}), empty parts left out. */
    public String query() {
        StringBuilder b = new StringBuilder();
        if (since != null) {
            b.append("since=").append(since);
        }
        if (tail != null) {
            b.append(b.isEmpty() ? "" : "&").append("tail=").append(tail);
        }
        if (follow) {
            b.append(b.isEmpty() ? "" : "&").append("follow=true");
        }
        return b.toString();
    }

    private static InvalidInput bad(String text) {
        return new InvalidInput(List.of("--since must be a duration back from now (90s, 5m, 2h, 1d, 1h30m; a bare number is seconds) or an"
                + " instant (2026-12-01T10:00:00Z), got '" + text + "'"));
    }
}
