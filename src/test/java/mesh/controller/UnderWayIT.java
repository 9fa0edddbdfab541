package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.util.List;
import mesh.model.Conflict;
import mesh.plan.Backup;
import mesh.plan.Take;
import mesh.store.BackupRecords;
import mesh.store.MigratedDatabase;
import mesh.store.TakeRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * UnderWayIT: one operation at a time on a module, read from the store's real records (the test bed's PostgreSQL, a
 * database of this test's own migrated as the controller migrates it): a take, a restore or a backup under way refuses
 * the other verbs on that module, naming what runs and where it shows, and leaves other modules alone; a take or a
 * restore also refuses moving the module's placement (assign, unassign), a backup does not.
 */
class UnderWayIT {

    @RegisterExtension
    final MigratedDatabase database = new MigratedDatabase();

    @Test
    void aTakeUnderWayRefusesABackupAndARestoreOfItsModuleOnly() throws Exception {
        try (Connection c = database.connect()) {
            TakeRecords.insert(c, Take.start("ledger", "n1", "n2", TakeRecords.nextEpoch(c), false));
            assertEquals("a take of module ledger is under way; back it up after it ends ('mesh status' shows it)",
                    refused(c, "ledger", UnderWay.Verb.BACKUP));
            assertEquals("a take of module ledger is under way; restore it after it ends ('mesh status' shows it)",
                    refused(c, "ledger", UnderWay.Verb.RESTORE));
            assertEquals("a take of module ledger is under way; assign it after it ends ('mesh status' shows it)",
                    refused(c, "ledger", UnderWay.Verb.ASSIGN));
            assertEquals("a take of module ledger is under way; unassign it after it ends ('mesh status' shows it)",
                    refused(c, "ledger", UnderWay.Verb.UNASSIGN));
            assertDoesNotThrow(() -> UnderWay.refuse(c, "ledger", UnderWay.Verb.TAKE), "the take's own to carry on");
            assertDoesNotThrow(() -> UnderWay.refuse(c, "wiki", UnderWay.Verb.ASSIGN));
            assertDoesNotThrow(() -> UnderWay.refuse(c, "wiki", UnderWay.Verb.BACKUP));
        }
    }

    @Test
    void aRestoreUnderWayRefusesEveryVerb() throws Exception {
        try (Connection c = database.connect()) {
            BackupRecords.insert(c, Take.restore(BackupRecords.nextRestoreId(c), "ledger", 7, null, "n3",
                    TakeRecords.nextEpoch(c), List.of(), null));
            assertEquals("a restore of module ledger is under way; take it after it ends ('mesh status' shows it)",
                    refused(c, "ledger", UnderWay.Verb.TAKE));
            assertEquals("a restore of module ledger is under way; restore it after it ends ('mesh status' shows it)",
                    refused(c, "ledger", UnderWay.Verb.RESTORE));
            assertEquals("a restore of module ledger is under way; back it up after it ends ('mesh status' shows it)",
                    refused(c, "ledger", UnderWay.Verb.BACKUP));
            assertEquals("a restore of module ledger is under way; assign it after it ends ('mesh status' shows it)",
                    refused(c, "ledger", UnderWay.Verb.ASSIGN));
            assertDoesNotThrow(() -> UnderWay.refuse(c, "wiki", UnderWay.Verb.TAKE));
        }
    }

    @Test
    void aBackupUnderWayRefusesEveryVerbNamingItself() throws Exception {
        try (Connection c = database.connect()) {
            long id = BackupRecords.nextId(c);
            BackupRecords.insert(c, Backup.start(id, "ledger", "n1", "n1", "mesh/backups/ledger", TakeRecords.nextEpoch(c),
                    false, List.of()), "operator");
            String step = BackupRecords.list(c, "ledger", false).get(0).backup().step().word();
            for (UnderWay.Verb verb : List.of(UnderWay.Verb.TAKE, UnderWay.Verb.BACKUP, UnderWay.Verb.RESTORE)) {
                assertEquals("backup " + id + " of module ledger is under way (step " + step + "); " + verb.after
                        + " after it ends ('mesh backup list ledger' shows it)", refused(c, "ledger", verb));
            }
            assertDoesNotThrow(() -> UnderWay.refuse(c, "wiki", UnderWay.Verb.RESTORE));
            assertDoesNotThrow(() -> UnderWay.refuse(c, "ledger", UnderWay.Verb.ASSIGN), "a backup only reads");
            assertDoesNotThrow(() -> UnderWay.refuse(c, "ledger", UnderWay.Verb.UNASSIGN));
        }
    }

    private static String refused(Connection c, String module, UnderWay.Verb verb) {
        return assertThrows(Conflict.class, () -> UnderWay.refuse(c, module, verb)).getMessage();
    }
}
