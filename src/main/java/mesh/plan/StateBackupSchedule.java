package mesh.plan;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * StateBackupSchedule decides when the controller makes the seat's state backup on its own (docs/rebuild.md): when none
 * was made yet, when the newest is {@link #EVERY} old, and when a verb that changes the keys a state backup holds (a CA
 * rotation, a secrets-key rotation, an operator token made or revoked: {@link #KEY_VERBS}) was recorded after it; and
 * which of the files it keeps in the seat's {@code state-backups/} folder go ({@link #KEEP} newest stay).
 */
public final class StateBackupSchedule {

    /** How often, at most, a state backup is made without a key change. */
    public static final Duration EVERY = Duration.ofDays(1);

    /** How many of its own state backup files the controller keeps. */
    public static final int KEEP = 7;

    /** The audit trail's verbs that change what a state backup holds of the seat's keys and tokens. */
    public static final List<String> KEY_VERBS = List.of("ca rotate-certs", "secret rotate-key", "token create", "token revoke");

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final Pattern OWN = Pattern.compile("mesh-state-\\d{8}T\\d{6}Z\\.backup");

    private StateBackupSchedule() {
    }

    /** KeyChange is the newest recorded verb of {@link #KEY_VERBS}: when, and which. */
    public record KeyChange(Instant at, String verb) {
    }

    /**
     * Why a state backup is due now, or empty when it is not: {@code newest} is when the newest was made (null: none),
     * {@code keys} the newest key change (null: none).
     */
    public static Optional<String> due(Instant newest, KeyChange keys, Instant now) {
        if (newest == null) {
            return Optional.of("no state backup was made yet");
        }
        if (keys != null && keys.at().isAfter(newest)) {
            return Optional.of("'" + keys.verb() + "' at " + keys.at() + " changed keys after the newest state backup");
        }
        if (!now.isBefore(newest.plus(EVERY))) {
            return Optional.of("the newest state backup was made at " + newest + ", " + EVERY.toHours() + " h or more ago");
        }
        return Optional.empty();
    }

    /**
     * Where the schedule sends its copy off the seat: the place of the newest state backup an operator pushed to a node's
     * registry ({@code node:NAME HOST:PORT/mesh-state:TAG}, as {@code mesh seat backup --to-node} records it), among
     * {@code places} (newest first); empty when none was, and the scheduled state backup stays on the seat alone.
     */
    public static Optional<String> offSeat(List<String> places) {
        return places.stream().filter(p -> p != null && p.startsWith("node:") && p.indexOf(' ') > "node:".length())
                .findFirst();
    }

    /** The node of an off-seat place ({@code node:NAME …}). */
    public static String offSeatNode(String place) {
        return place.substring("node:".length(), place.indexOf(' '));
    }

    /** The name of the controller's state backup file made at {@code made}: {@code mesh-state-20261205T100003Z.backup}. */
    public static String fileName(Instant made) {
        return "mesh-state-" + STAMP.format(made) + ".backup";
    }

    /** Of the files in the folder, the controller's own ({@link #fileName}) past the {@code keep} newest; others stay. */
    public static List<String> pruned(List<String> names, int keep) {
        return names.stream().filter(n -> OWN.matcher(n).matches()).sorted(Comparator.reverseOrder()).skip(Math.max(0, keep)).toList();
    }
}
