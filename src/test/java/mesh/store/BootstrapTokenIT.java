package mesh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mesh.model.Poll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * BootstrapTokenIT: two controllers starting at once on one store (the test bed's real PostgreSQL) both store the
 * bootstrap token ({@link TrustStore#bootstrap}). The first's transaction is held open after its write; the second's
 * must wait for it, then find its row: KEPT, not a start failed on the duplicate key (as it did before the table was
 * locked: its read saw no row, and its insert then waited on the first's key and failed when that committed).
 */
class BootstrapTokenIT {

    @RegisterExtension
    final MigratedDatabase database = new MigratedDatabase();
    final TrustStore trust = new TrustStore();
    final byte[] hash = "the-token-hash".getBytes(StandardCharsets.UTF_8);

    @Test
    void twoStartsAtOnceTakeTurnsAndTheLaterKeepsTheEarliersToken() throws Exception {
        try (Connection first = database.connect(); Connection second = database.connect(); Connection watcher = database.connect()) {
            first.setAutoCommit(false);
            assertEquals(TrustStore.Bootstrap.MADE, trust.bootstrap(first, "admin", hash, "controller"));

            // a thread of its own: the common pool has one thread on two cores, and other ITs beside this one may hold it
            java.util.concurrent.ExecutorService own = java.util.concurrent.Executors.newSingleThreadExecutor();
            CompletableFuture<TrustStore.Bootstrap> later = CompletableFuture.supplyAsync(() -> {
                try {
                    second.setAutoCommit(false);
                    TrustStore.Bootstrap b = trust.bootstrap(second, "admin", hash, "controller");
                    second.commit();
                    return b;
                } catch (java.sql.SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            }, own);
            own.shutdown();
            // the second start is waiting on the first's transaction (PostgreSQL's own view of it), not done; read from a
            // session of its own in autocommit: within a transaction PostgreSQL answers pg_stat_activity from one snapshot
            Poll.Result<Boolean> waiting = Poll.until(Duration.ofSeconds(30), Duration.ofMillis(50), () -> {
                try (var s = watcher.createStatement(); var r = s.executeQuery(
                        "select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")) {
                    r.next();
                    return r.getInt(1) > 0 ? Poll.got(true) : Poll.notYet("no session waits on a lock");
                } catch (java.sql.SQLException e) {
                    return Poll.notYet(e.getMessage());
                }
            });
            assertEquals(new Poll.Answered<>(true), waiting, "the second start waits for the first");
            assertFalse(later.isDone(), "the second start did not wait for the first");
            first.commit();

            assertEquals(TrustStore.Bootstrap.KEPT, later.get(30, TimeUnit.SECONDS));
            TrustStore.TokenRow row = trust.token(first, "admin").orElseThrow();
            assertArrayEquals(hash, row.hash());
            assertEquals(1, trust.tokens(first).size());
        }
    }

    @Test
    void aStartWithAnotherTokenReplacesItAndTheSameTokenWritesNothing() throws Exception {
        try (Connection c = database.connect()) {
            c.setAutoCommit(false);   // as a controller's start: one transaction (the lock holds to its end)
            assertEquals(TrustStore.Bootstrap.MADE, trust.bootstrap(c, "admin", hash, "controller"));
            assertEquals(TrustStore.Bootstrap.KEPT, trust.bootstrap(c, "admin", hash, "controller"));
            byte[] other = "another-hash".getBytes(StandardCharsets.UTF_8);
            assertEquals(TrustStore.Bootstrap.REPLACED, trust.bootstrap(c, "admin", other, "controller"));
            trust.revokeToken(c, "admin");
            assertEquals(TrustStore.Bootstrap.REVOKED, trust.bootstrap(c, "admin", other, "controller"));
            c.commit();
        }
    }
}
