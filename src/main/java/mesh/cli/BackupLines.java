package mesh.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import mesh.wire.BackupStatus;

/** BackupLines is what {@code mesh status} says of a module's backups, for people (docs/backup.md). */
final class BackupLines {

    private BackupLines() {
    }

    static List<String> status(BackupStatus b, Instant now) {
        List<String> lines = new ArrayList<>();
        StringBuilder l = new StringBuilder("backup " + b.module() + " (" + b.node() + "): ");
        if (b.last() == null) {
            l.append("none yet");
        } else {
            l.append("last ").append(b.last()).append(" ").append(b.lastState()).append(" ").append(Times.human(b.lastAt(), now));
            if (b.lastError() != null) {
                l.append(" (").append(b.lastError()).append(")");
            }
            if (b.lastState() != mesh.model.OperationState.DONE && b.lastDone() != null) {
                l.append("; last good ").append(b.lastDone()).append(" ").append(Times.human(b.lastDoneAt(), now));
            }
        }
        l.append(b.every() == null ? "; no schedule" : "; every " + period(b.every()) + ", keep " + b.keep()
                + (b.nextDue() == null ? "" : ", next " + next(b.nextDue(), now)));
        lines.add(l.toString());
        if (b.sameNode()) {
            lines.add("warning: backups of " + b.module() + " land on the registry of " + b.node() + ", the node it runs on: a backup"
                    + " on the same disk is not a backup; give its manifest's backup a registry: on another node, or move"
                    + " mesh-registry with 'mesh take'");
        }
        return lines;
    }

    static String period(long seconds) {
        return seconds % 86400 == 0 ? seconds / 86400 + "d" : seconds % 3600 == 0 ? seconds / 3600 + "h" : seconds / 60 + "m";
    }

    private static String next(String iso, Instant now) {
        try {
            Duration d = Duration.between(now, Instant.parse(iso));
            return d.isNegative() || d.isZero() ? "due now" : "in " + period(Math.max(60, d.toSeconds()) / 60 * 60);
        } catch (java.time.format.DateTimeParseException e) {
            return iso;
        }
    }
}
