package mesh.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import mesh.model.Poll;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * MigratedDatabase is a database of one test's own on the test bed's real PostgreSQL, migrated as the controller
 * migrates the store, for the store's ITs: made before each test, dropped after it, as a JUnit extension
 * ({@code @RegisterExtension final MigratedDatabase database = new MigratedDatabase();}).
 */
public final class MigratedDatabase implements BeforeEachCallback, AfterEachCallback {

    static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/";

    final String name = "mesh_it_" + UUID.randomUUID().toString().substring(0, 8);

    /** Makes the database and migrates it. */
    public MigratedDatabase create() throws SQLException {
        created();
        Migrations.flyway(POSTGRES + name, "mesh", "mesh").migrate();
        return this;
    }

    /** Makes the database, empty. */
    public MigratedDatabase created() throws SQLException {
        try (Connection c = DriverManager.getConnection(POSTGRES + "postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + name);
        }
        return this;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws SQLException {
        create();
    }

    @Override
    public void afterEach(ExtensionContext context) throws SQLException, InterruptedException {
        drop();
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(POSTGRES + name, "mesh", "mesh");
    }

    /**
     * Drops the database. {@code with (force)} ends the other sessions on it, and is refused while one is not ours to end
     * (an autovacuum worker busy on the freshly migrated tables: "must be a member of the role whose process is being
     * terminated", seen once in CI); such a worker is done in moments, so the drop is tried again for 10 s.
     */
    public void drop() throws SQLException, InterruptedException {
        try (Connection c = DriverManager.getConnection(POSTGRES + "postgres", "mesh", "mesh")) {
            SQLException[] last = {null};
            Poll.Result<Boolean> r = Poll.interruptibly(Duration.ofSeconds(10), Duration.ofMillis(200), () -> {
                try {
                    c.createStatement().execute("drop database if exists " + name + " with (force)");
                    return Poll.got(true);
                } catch (SQLException e) {
                    if (!"42501".equals(e.getSQLState())) {
                        throw e;
                    }
                    last[0] = e;
                    return Poll.notYet(e.getMessage());
                }
            });
            if (r instanceof Poll.TimedOut<Boolean>) {
                throw last[0];
            }
        }
    }
}
