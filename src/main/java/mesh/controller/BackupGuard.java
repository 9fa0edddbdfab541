package mesh.controller;

import java.sql.Connection;
import java.sql.SQLException;
import mesh.model.Conflict;
import mesh.store.BackupRecords;

/** BackupGuard keeps a take off a module whose backup or restore is under way (they use the take's fences). */
final class BackupGuard {

    private BackupGuard() {
    }

    static void refuseWhileBackedUp(Connection c, String module) throws SQLException {
        if (BackupRecords.runningRestore(c, module).isPresent()) {
            throw new Conflict("a restore of module " + module + " is under way; take it after it ends ('mesh status' shows it)");
        }
        if (BackupRecords.list(c, module, false).stream().anyMatch(r -> !r.backup().step().ended())) {
            throw new Conflict("a backup of module " + module + " is under way; take it after it ends ('mesh backup list "
                    + module + "' shows it)");
        }
    }
}
