package mesh.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Times writes instants for people: how long ago, in the largest unit that fits ("12 s ago",
 * "3 min ago", "2 h ago", "4 d ago"). Tables use it; {@code -o json} keeps the exact ISO-8601 instant.
 */
final class Times {

    private Times() {
    }

    /** How long before {@code now} the ISO-8601 instant {@code iso} was; "-" when there is none. */
    static String human(String iso, Instant now) {
        if (iso == null) {
            return "-";
        }
        try {
            return ago(Duration.between(Instant.parse(iso), now));
        } catch (DateTimeParseException e) {
            return iso;
        }
    }

    /**
     * An instant for people, to the second in UTC with how long ago ({@code 2026-11-30 10:00:03 UTC, 2 h ago});
     * the text as it is when it is not an ISO-8601 instant. {@code -o json} keeps the exact instant.
     */
    static String when(String iso, Instant now) {
        if (iso == null) {
            return "-";
        }
        try {
            Instant at = Instant.parse(iso);
            return SECONDS.format(at) + " UTC, " + ago(Duration.between(at, now));
        } catch (DateTimeParseException e) {
            return iso;
        }
    }

    private static final java.time.format.DateTimeFormatter SECONDS =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(java.time.ZoneOffset.UTC);

    static String ago(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 120) {
            return s + " s ago";
        }
        if (s < 120 * 60) {
            return s / 60 + " min ago";
        }
        if (s < 48 * 3600) {
            return s / 3600 + " h ago";
        }
        return s / 86400 + " d ago";
    }

    /**
     * The instant {@code mesh audit --since} means: a duration back from {@code now} ("90s", "30m",
     * "12h", "7d"), an ISO-8601 instant ("2026-11-30T19:00:00Z") or a day ("2026-11-30", from its
     * start, UTC). Anything else is a usage error that says what is taken.
     */
    static Instant since(String given, Instant now) {
        String s = given == null ? "" : given.strip();
        if (mesh.model.DurationText.problem(s) == null) {
            try {
                return now.minus(mesh.model.DurationText.parse(s));
            } catch (java.time.DateTimeException | ArithmeticException e) {
                // further back than an instant goes: said below, as anything else not taken
            }
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            // not an instant: a day, or nothing we take
        }
        try {
            return java.time.LocalDate.parse(s).atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--since: a duration back from now (90s, 30m, 12h, 7d, 1h30m; a bare number is seconds), an instant"
                    + " (2026-11-30T19:00:00Z) or a day (2026-11-30) is needed, got '" + given + "'");
        }
    }
}
