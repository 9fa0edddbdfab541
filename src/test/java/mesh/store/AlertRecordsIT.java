package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import mesh.plan.AlertRules;
import mesh.plan.AlertRules.Alert;
import mesh.plan.AlertRules.Condition;
import mesh.plan.AlertRules.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * AlertRecordsIT: the controller's alerts and their receivers (V12__alerts.sql) on the test bed's real PostgreSQL, in a
 * database of this test's own migrated as the controller migrates it. What a look decides reads back at the next look
 * as it was (a restarted controller carries its alerts on); a resolve is kept with its time and forgotten after the
 * keep; the failed takes and restores are the modules whose last one failed lately; receivers add and remove once.
 */
class AlertRecordsIT {

    static final Instant T0 = Instant.parse("2026-12-05T12:00:00Z");
    @RegisterExtension
    final MigratedDatabase database = new MigratedDatabase();

    Connection connect() throws SQLException {
        return database.connect();
    }

    /** One look as the controller makes it: the stored alerts, the rules' step, the result stored. */
    static AlertRules.Step look(Connection c, List<Condition> holding, Instant now) throws SQLException {
        AlertRules.Step step = AlertRules.step(AlertRecords.open(c), holding, now);
        AlertRecords.save(c, step.alerts(), step.changes(), now.minus(Duration.ofMinutes(15)));
        return step;
    }

    @Test
    void aNodeDownFiresOnceAcrossLooksReadFromTheStoreAndItsResolveIsKeptThenForgotten() throws Exception {
        Condition down = new Condition(Kind.NODE_DOWN, "n2", "n2", "node n2's agent does not answer");
        try (Connection c = connect()) {
            assertTrue(look(c, List.of(down), T0).changes().isEmpty(), "pending at first sight");
            assertEquals(List.of(new Alert(Kind.NODE_DOWN, "n2", "n2", down.detail(), T0, null, null)), AlertRecords.open(c));
            AlertRules.Step fired = look(c, List.of(down), T0.plusSeconds(30));
            assertEquals(1, fired.changes().size());
            assertTrue(look(c, List.of(down), T0.plusSeconds(35)).changes().isEmpty(), "firing, not fired again");
            Alert firing = AlertRecords.open(c).get(0);
            assertEquals(T0, firing.since());
            assertEquals(T0.plusSeconds(30), firing.firedAt());

            look(c, List.of(), T0.plusSeconds(40));
            assertEquals(T0.plusSeconds(40), AlertRecords.open(c).get(0).clearSince(), "its condition gone: it waits to resolve");
            AlertRules.Step resolved = look(c, List.of(), T0.plusSeconds(70));
            assertEquals(1, resolved.changes().size());
            assertFalse(resolved.changes().get(0).fired());
            assertEquals(List.of(), AlertRecords.open(c));
            List<AlertRecords.Resolved> kept = AlertRecords.resolvedSince(c, T0);
            assertEquals(1, kept.size());
            assertEquals(T0.plusSeconds(40), kept.get(0).at());
            assertEquals(Duration.ofSeconds(40), kept.get(0).lasted());

            Condition again = new Condition(Kind.NODE_DOWN, "n2", "n2", "node n2's agent does not answer");
            look(c, List.of(again), T0.plusSeconds(80));
            assertEquals(1, AlertRecords.open(c).size(), "a new alert for the same node beside the resolved one");
            assertEquals(1, AlertRecords.resolvedSince(c, T0).size());
            look(c, List.of(again), T0.plusSeconds(80).plus(Duration.ofMinutes(16)));
            assertEquals(List.of(), AlertRecords.resolvedSince(c, T0), "a resolve is forgotten after the keep");
        }
    }

    @Test
    void aModuleWhoseLastTakeFailedLatelyIsListedUntilALaterOneEndsWell() throws Exception {
        try (Connection c = connect()) {
            Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            c.createStatement().execute("insert into takes (epoch, module, to_node, step, state, updated_at) values"
                    + " (1, 'web', 'n2', 'failed', 'failed', now()), (2, 'ledger', 'n3', 'rolled-back', 'rolled-back', now()),"
                    + " (3, 'mail', 'n2', 'failed', 'failed', now()), (4, 'mail', 'n3', 'done', 'done', now()),"
                    + " (5, 'old', 'n2', 'failed', 'failed', now() - interval '2 hours')");
            assertEquals(List.of("ledger", "web"), AlertRecords.failedLately(c, false, now.minus(Duration.ofHours(1))));
            c.createStatement().execute("insert into restores (module, state, record, ended_at) values"
                    + " ('ledger', 'failed', '{}', now()), ('web', 'done', '{}', now())");
            assertEquals(List.of("ledger"), AlertRecords.failedLately(c, true, now.minus(Duration.ofHours(1))));
        }
    }

    @Test
    void aReceiverIsAddedAndRemovedOnce() throws Exception {
        try (Connection c = connect()) {
            assertTrue(AlertRecords.addReceiver(c, "http://10.0.0.5:9093", "alice"));
            assertFalse(AlertRecords.addReceiver(c, "http://10.0.0.5:9093", "bob"), "adding it again changes nothing");
            List<AlertRecords.Receiver> all = AlertRecords.receivers(c);
            assertEquals(1, all.size());
            assertEquals("alice", all.get(0).addedBy());
            assertTrue(AlertRecords.removeReceiver(c, "http://10.0.0.5:9093"));
            assertFalse(AlertRecords.removeReceiver(c, "http://10.0.0.5:9093"));
            assertEquals(List.of(), AlertRecords.receivers(c));
        }
    }
}
