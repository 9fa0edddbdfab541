package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * StoreCopyIT: a state backup's copy of the store (StoreCopy) on the test bed's real PostgreSQL: the rows copied out of
 * one migrated store replace every row of another (marker A there, marker B gone), sequences go on past the copied
 * rows, and a copy of another schema version is refused writing nothing.
 */
class StoreCopyIT {

    @RegisterExtension
    final MigratedDatabase from = new MigratedDatabase();
    @RegisterExtension
    final MigratedDatabase into = new MigratedDatabase();

    @Test
    void theCopyReplacesEveryRowAndSequencesGoOn() throws Exception {
        Map<String, byte[]> parts;
        try (Connection c = from.connect()) {
            c.createStatement().execute("insert into nodes (name, address, agent) values ('marker-a', '10.0.0.1', 'x')");
            // node_pushes sorts before nodes and references it: the copy fills referenced tables first
            c.createStatement().execute("insert into node_pushes (node, last_generation) values ('marker-a', 7)");
            c.createStatement().execute("insert into modules (name, manifest, source) values ('web', '{}', 'web.yaml')");
            c.createStatement().execute("insert into placements (module, assigned) values ('web', 'marker-a')");
            c.createStatement().execute("insert into audit (token, verb, change) values ('admin', 'node add', 'a'), ('admin', 'node add', 'b')");
            parts = StoreCopy.copyOut(c);
        }
        assertTrue(parts.containsKey(StoreCopy.TABLE_PART + "nodes"), parts.keySet().toString());
        try (Connection c = into.connect()) {
            c.createStatement().execute("insert into nodes (name, address, agent) values ('marker-b', '10.0.0.2', 'x')");
            StoreCopy.copyIn(c, parts);
            assertEquals(List.of("marker-a"), column(c, "select name from nodes order by name"));
            assertEquals(List.of("marker-a 7"), column(c, "select node || ' ' || last_generation from node_pushes"));
            assertEquals(List.of("web marker-a"), column(c, "select module || ' ' || assigned from placements"));
            assertEquals(List.of("a", "b"), column(c, "select change from audit order by id"));
            c.createStatement().execute("insert into audit (token, verb, change) values ('admin', 'node add', 'c')");
            assertEquals(List.of("3"), column(c, "select id::text from audit where change = 'c'"), "the sequence goes on past the copy");
        }
    }

    @Test
    void aCopyOfAnotherSchemaVersionIsRefusedWritingNothing() throws Exception {
        try (Connection c = into.connect()) {
            c.createStatement().execute("insert into nodes (name, address, agent) values ('marker-b', '10.0.0.2', 'x')");
            Map<String, byte[]> parts = new HashMap<>(StoreCopy.copyOut(c));
            parts.put(StoreCopy.SCHEMA_PART, "999".getBytes(StandardCharsets.US_ASCII));
            SQLException e = assertThrows(SQLException.class, () -> StoreCopy.copyIn(c, parts));
            assertTrue(e.getMessage().contains("schema version 999"), e.getMessage());
            assertEquals(List.of("marker-b"), column(c, "select name from nodes"));
        }
    }

    @Test
    void stateBackupsAreRecordedAndReadNewestFirstAndTravelInTheCopy() throws Exception {
        java.time.Instant older = java.time.Instant.parse("2026-12-01T10:00:03Z");
        java.time.Instant newer = java.time.Instant.parse("2026-12-05T10:00:03Z");
        Map<String, byte[]> parts;
        try (Connection c = from.connect()) {
            StateBackupRecords.record(c, new StateBackupRecords.Row(newer, "file:/mnt/usb/b", 2048, "sha256:ab"));
            StateBackupRecords.record(c, new StateBackupRecords.Row(older, "file:/mnt/usb/a", 1024, "sha256:ab"));
            assertEquals(List.of(new StateBackupRecords.Row(newer, "file:/mnt/usb/b", 2048, "sha256:ab")),
                    StateBackupRecords.newest(c, 1));
            assertEquals(List.of("file:/mnt/usb/b", "file:/mnt/usb/a"),
                    StateBackupRecords.newest(c, 10).stream().map(StateBackupRecords.Row::place).toList());
            assertEquals(null, StateBackupRecords.lastKeyChange(c, mesh.plan.StateBackupSchedule.KEY_VERBS));
            c.createStatement().execute("insert into audit (token, verb, change) values ('admin', 'token create', 'ops'),"
                    + " ('admin', 'node add', 'n9')");
            assertEquals("token create", StateBackupRecords.lastKeyChange(c, mesh.plan.StateBackupSchedule.KEY_VERBS).verb());
            parts = StoreCopy.copyOut(c);
        }
        try (Connection c = into.connect()) {
            StoreCopy.copyIn(c, parts);
            assertEquals(2, StateBackupRecords.newest(c, 10).size());
        }
    }

    private static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet r = c.createStatement().executeQuery(sql)) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }
}
