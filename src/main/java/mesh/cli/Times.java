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
}
