package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
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
