package mesh.store;

import io.quarkus.flyway.FlywayConfigurationCustomizer;
import io.quarkus.flyway.runtime.QuarkusFlywayResourceProvider;
import io.quarkus.flyway.runtime.QuarkusPathLocationScanner;
import jakarta.inject.Singleton;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;

/**
 * Migrations is how the store's schema is migrated (db/migration): by the controller at its start (Quarkus's Flyway,
 * given {@link #customize}) and by a rebuild outside a controller ({@link #flyway}), the same way.
 *
 * <p>Each migration and its row in Flyway's history commit in <b>one</b> transaction. Flyway's default on PostgreSQL
 * (a transactional advisory lock, since Flyway 9.1) holds the lock and writes the history on one connection and runs
 * the migration on another, each in its own transaction (flyway/flyway#3492): a controller killed between the two
 * commits leaves a migration applied and not recorded, and every later start fails on it ("relation "nodes" already
 * exists"; seen when a rerun of {@code mesh install} ended a temporary controller it found still migrating a fresh
 * store). With the session lock instead, Flyway runs on one connection and the history row is written inside the
 * migration's own transaction; a killed process's session ends and its lock with it.
 */
@Singleton
public class Migrations implements FlywayConfigurationCustomizer {

    @Override
    public void customize(FluentConfiguration configuration) {
        oneTransactionEach(configuration);
    }

    /** Makes each migration commit with its history row ({@link Migrations}). */
    public static FluentConfiguration oneTransactionEach(FluentConfiguration configuration) {
        configuration.getPluginRegister().getExact(PostgreSQLConfigurationExtension.class).setTransactionalLock(false);
        return configuration;
    }

    /**
     * The store's Flyway outside a controller (Flyway is inactive in every other verb): with the migrations the build
     * recorded (Quarkus's own scanner, as its Flyway does), else Flyway's own class path scan (a test's plain class path).
     */
    public static Flyway flyway(String url, String user, String password) {
        FluentConfiguration conf = Flyway.configure().dataSource(url, user, password).locations("classpath:db/migration");
        try {
            var known = new QuarkusPathLocationScanner(conf, List.of(conf.getLocations())).scanForResources();
            if (!known.isEmpty()) {
                conf.resourceProvider(new QuarkusFlywayResourceProvider(known));
            }
        } catch (RuntimeException | LinkageError e) {
            // no migrations recorded by the build: Flyway scans the class path itself
        }
        return oneTransactionEach(conf).load();
    }
}
