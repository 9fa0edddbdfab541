package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.model.TakeStep;
import mesh.plan.Operation.Done;
import mesh.plan.Operation.Failed;
import mesh.plan.Operation.Outcome;
import mesh.plan.Operation.Reason;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.store.MigratedDatabase;
import mesh.store.TakeRecords;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SwitchInDoubtIT: a take's switch whose outcome is in doubt, on the store's real PostgreSQL (a database of this test's
 * own, migrated as the controller migrates it), its transactions side by side on connections of their own as the
 * runner and a switch it gave up on have them. A read of the switch in doubt waits for a switch transaction still
 * committing and sees what it wrote (the take goes forward); a switch transaction that comes after the failed try was
 * recorded writes nothing (the take rolls back, and no late commit moves the module behind that); a lock held past the
 * read's wait fails the read, not the take; a switch that committed before its controller died and 'mesh assign' then
 * moved the assignment is found done, not refused as moved.
 */
class SwitchInDoubtIT {

    static final Manifest WEB = ManifestYaml.parse("web.yaml", """
            module: web
            components:
              web.server: {image: mesh-test/busybox:1, volumes: {data: /data}}
            """);
    static final String TIMED_OUT = "it did not end within its deadline of 5 min";

    @RegisterExtension
    final MigratedDatabase database = new MigratedDatabase();
    final MeshStore store = new MeshStore();
    Take take;

    @BeforeEach
    void aTakeOfWebFromN1ToN2StandsAtItsSwitch() throws SQLException {
        try (Connection c = connect()) {
            for (String n : List.of("n1", "n2", "n3")) {
                store.addNode(c, new Node(n, "10.77.0.1" + n.charAt(1), "https://10.77.0.1" + n.charAt(1) + ":7701", null));
            }
            store.putModule(c, WEB, "web.yaml");
            store.putPlacement(c, new Placement("web", "n1", "n1"));
            take = Take.start("web", "n1", "n2", TakeRecords.nextEpoch(c), false).at(TakeStep.SWITCH);
            TakeRecords.insert(c, take);
            c.commit();
        }
    }

    @Test
    void aSwitchStillCommittingIsWaitedForAndFoundCommitted() throws Exception {
        try (Connection switching = connect(); Connection runner = connect()) {
            // the switch's transaction has written and not committed yet (as one whose commit waits on a paused standby)
            assertEquals(new Done(), TakeSteps.switchIn(store, switching, take, List.of()));
            Take doubt = TakePlan.after(take, new Failed(Reason.TIMED_OUT, TIMED_OUT));
            CompletableFuture<Outcome> read = CompletableFuture.supplyAsync(() -> {
                try {
                    TakeRecords.save(runner, doubt);   // the runner records the failed try: behind the switch's lock
                    runner.commit();
                    Outcome found = TakeSteps.switchFound(store, runner, doubt, Duration.ofSeconds(30));
                    runner.commit();
                    return found;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, PackagedMesh.OWN_THREAD);
            Thread.sleep(1500);
            assertFalse(read.isDone(), "the failed try is recorded and read only once the switch's transaction ends");
            switching.commit();
            Outcome found = read.get(20, TimeUnit.SECONDS);
            assertEquals(new TakePlan.SwitchFound("n2"), found);
            assertEquals(TakeStep.PUSH, TakePlan.after(doubt, found).step(), "committed: forward, the copy on n2 kept");
        }
        assertEquals(new Placement("web", "n2", "n2"), placement());
    }

    @Test
    void aSwitchThatComesAfterTheFailedTryWasRecordedWritesNothing() throws Exception {
        Take doubt = TakePlan.after(take, new Failed(Reason.TIMED_OUT, TIMED_OUT));
        try (Connection runner = connect(); Connection late = connect()) {
            TakeRecords.save(runner, doubt);
            runner.commit();
            // the worker the runner gave up on reaches its transaction only now, with the record it was handed
            Outcome wrote = TakeSteps.switchIn(store, late, take, List.of());
            late.commit();
            assertEquals(Reason.CONFLICT, ((Failed) wrote).reason(), String.valueOf(wrote));
            assertEquals(new Placement("web", "n1", "n1"), placement(), "nothing written");
            Outcome found = TakeSteps.switchFound(store, runner, doubt, Duration.ofSeconds(30));
            runner.commit();
            assertEquals(new TakePlan.SwitchFound("n1"), found);
            Take back = TakePlan.after(doubt, found);
            assertEquals(TakeStep.STOP_TARGET, back.step(), "not committed, and no try of it can commit now: rolled back");
            assertTrue(back.error().startsWith("switch: " + TIMED_OUT), back.error());
        }
    }

    @Test
    void aLockHeldPastTheReadsWaitFailsTheReadNotTheTake() throws Exception {
        Take doubt = TakePlan.after(take, new Failed(Reason.TIMED_OUT, TIMED_OUT));
        try (Connection runner = connect(); Connection holder = connect()) {
            TakeRecords.save(runner, doubt);
            runner.commit();
            assertTrue(TakeRecords.locked(holder, take.epoch()).isPresent());   // held, as by a transaction that hangs
            long began = System.nanoTime();
            SQLException e = assertThrows(SQLException.class,
                    () -> TakeSteps.switchFound(store, runner, doubt, Duration.ofMillis(800)));
            runner.rollback();
            long ms = (System.nanoTime() - began) / 1_000_000;
            assertEquals("55P03", e.getSQLState(), e.getMessage());   // lock_not_available: the lock_timeout
            assertTrue(ms >= 700 && ms < 10_000, ms + " ms");
            Take still = TakePlan.after(doubt, new Failed(Reason.INTERNAL, e.getMessage()));
            assertTrue(TakePlan.switchInDoubt(still), "read again on the next try, the copy on n2 untouched");
            holder.rollback();
        }
    }

    @Test
    void aSwitchThatCommittedBeforeAnAssignElsewhereIsFoundDone() throws Exception {
        try (Connection c = connect()) {
            // committed by a controller killed before it recorded so; then 'mesh assign n3 web' (taken stays on n2)
            store.putPlacement(c, new Placement("web", "n3", "n2"));
            c.commit();
            assertEquals(new Done(), TakeSteps.switchIn(store, c, take, List.of()), "the resumed switch finds itself done");
            c.commit();
        }
        assertEquals(new Placement("web", "n3", "n2"), placement(), "nothing rewritten");
    }

    @Test
    void aRestoresSwitchInDoubtIsReadUnderItsOwnRecord() throws Exception {
        try (Connection c = connect()) {
            Take restore = Take.restore(BackupRecords.nextRestoreId(c), "web", 9, "n1", "n2", TakeRecords.nextEpoch(c),
                    List.of(), null).at(TakeStep.SWITCH);
            BackupRecords.insert(c, restore);
            c.commit();
            Take doubt = TakePlan.after(restore, new Failed(Reason.TIMED_OUT, TIMED_OUT));
            BackupRecords.save(c, doubt);
            c.commit();
            assertEquals(Reason.CONFLICT, ((Failed) TakeSteps.switchIn(store, c, restore, List.of())).reason());
            assertEquals(new TakePlan.SwitchFound("n1"), TakeSteps.switchFound(store, c, doubt, Duration.ofSeconds(5)));
            c.commit();
        }
    }

    private Placement placement() throws SQLException {
        try (Connection c = connect()) {
            return store.placements(c).stream().filter(p -> p.module().equals("web")).findFirst().orElseThrow();
        }
    }

    private Connection connect() throws SQLException {
        Connection c = database.connect();
        c.setAutoCommit(false);
        return c;
    }
}
