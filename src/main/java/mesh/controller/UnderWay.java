package mesh.controller;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import mesh.model.Conflict;
import mesh.store.BackupRecords;
import mesh.store.TakeRecords;

/**
 * UnderWay keeps one operation at a time on a module: a take, a restore and a backup each fence the module or copy
 * its data, so none begins while another of them is under way on it (docs/backup.md). The refusal names what runs,
 * what to do after it, and where it shows. A take checks only restores and backups here: a take under way of the same
 * module is its own to carry on or refuse ({@link TakeOperation}). {@code mesh assign} and {@code mesh unassign} of a module
 * are refused while a take or a restore of it is under way: either starts the module where it decided from the placement
 * it read, so a placement moved beside it (unassigned from the source, assigned to a third node, pushed) would run a
 * second copy there; a backup only reads, and leaves them free.
 */
final class UnderWay {

    /** The verbs this refuses, with their words for "do it after": "take it", "back it up", "restore it". */
    enum Verb {
        TAKE("take it"), BACKUP("back it up"), RESTORE("restore it"), ASSIGN("assign it"), UNASSIGN("unassign it");

        final String after;

        Verb(String after) {
            this.after = after;
        }
    }

    private UnderWay() {
    }

    /** Refuses {@code verb} on {@code module} while another take, restore or backup of it is under way. */
    static void refuse(Connection c, String module, Verb verb) throws SQLException {
        Optional<String> why = why(c, module, verb);
        if (why.isPresent()) {
            throw new Conflict(why.get());
        }
    }

    private static Optional<String> why(Connection c, String module, Verb verb) throws SQLException {
        if (verb != Verb.TAKE && TakeRecords.running(c, module).isPresent()) {
            return Optional.of("a take of module " + module + " is under way; " + verb.after + " after it ends ('mesh status'"
                    + " shows it)");
        }
        if (BackupRecords.runningRestore(c, module).isPresent()) {
            return Optional.of("a restore of module " + module + " is under way; " + verb.after + " after it ends ('mesh status'"
                    + " shows it)");
        }
        if (verb == Verb.ASSIGN || verb == Verb.UNASSIGN) {
            return Optional.empty();
        }
        return BackupRecords.list(c, module, false).stream().filter(r -> !r.backup().step().ended()).findFirst()
                .map(r -> "backup " + r.backup().id() + " of module " + module + " is under way (step " + r.backup().step().word()
                        + "); " + verb.after + " after it ends ('mesh backup list " + module + "' shows it)");
    }
}
