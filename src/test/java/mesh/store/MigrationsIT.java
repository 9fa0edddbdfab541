package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * MigrationsIT: on the test bed's real PostgreSQL, each of the store's migrations commits in one transaction with its
 * row in Flyway's history ({@link Migrations}), so a controller killed at any instant of its migration leaves each
 * migration either applied and recorded or neither. Flyway's own default, for contrast, records every one apart from
 * it: the window a killed temporary controller once fell into (a rerun of the install then failed on "relation "nodes"
 * already exists").
 */
class MigrationsIT {

    @Test
    void eachMigrationCommitsWithItsHistoryRow() throws Exception {
        MigratedDatabase database = new MigratedDatabase().create();
        try (Connection c = database.connect()) {
            List<String> recorded = MigrationCommits.recorded(c);
            assertTrue(recorded.size() >= 15, "the store's migrations: " + recorded);
            assertEquals(List.of(), MigrationCommits.recordedApart(c), "recorded in a transaction of their own");
        } finally {
            database.drop();
        }
    }

    @Test
    void aStoreNotMigratedYetHasNoStandby() throws Exception {
        MigratedDatabase database = new MigratedDatabase().created();
        try (Connection c = database.connect()) {
            assertEquals(List.of(), StandbyRecords.all(c), "the standby watch's look before the controller migrates");
            Migrations.flyway(MigratedDatabase.POSTGRES + database.name, "mesh", "mesh").migrate();
            c.createStatement().execute("insert into nodes (name, address, agent) values ('n2', '10.0.0.2', 'https://10.0.0.2:7400')");
            StandbyRecords.add(c, "n2", Instant.parse("2026-12-07T02:00:00Z"));
            assertEquals(List.of("n2"), StandbyRecords.all(c).stream().map(StandbyRecords.Row::node).toList());
        } finally {
            database.drop();
        }
    }

    @Test
    void flywaysDefaultRecordsEachApartFromIt() throws Exception {
        MigratedDatabase database = new MigratedDatabase().created();
        try {
            Flyway.configure().dataSource(MigratedDatabase.POSTGRES + database.name, "mesh", "mesh")
                    .locations("classpath:db/migration").load().migrate();
            try (Connection c = database.connect()) {
                assertEquals(MigrationCommits.recorded(c), MigrationCommits.recordedApart(c));
            }
        } finally {
            database.drop();
        }
    }
}
