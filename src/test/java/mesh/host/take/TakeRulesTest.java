package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import mesh.model.Declaration;
import mesh.model.Specs;
import org.junit.jupiter.api.Test;

class TakeRulesTest {

    static final Instant NOW = Instant.parse("2026-11-30T20:00:00Z");

    static TakeState fencedAt(long epoch) {
        return TakeRules.fence(TakeState.none("gitea"), epoch, NOW);
    }

    @Test
    void aFenceIsRecordedAtItsEpochAndTheSameEpochAgainChangesNothing() {
        TakeState s = fencedAt(7);
        assertEquals(7, s.fence().epoch());
        assertEquals(7, s.epoch());
        assertEquals(NOW.toString(), s.fence().since());
        assertSame(s, TakeRules.fence(s, 7, NOW.plusSeconds(5)));
    }

    @Test
    void aLowerEpochIsRefusedNamingTheModuleAndTheNewerEpoch() {
        TakeState s = fencedAt(7);
        TakeRefused r = assertThrows(TakeRefused.class, () -> TakeRules.fence(s, 6, NOW));
        assertEquals(409, r.status());
        assertEquals("a newer take (epoch 7) holds module gitea here; epoch 6 is refused and nothing was changed", r.getMessage());
        assertThrows(TakeRefused.class, () -> TakeRules.lift(s, 6));
        assertThrows(TakeRefused.class, () -> TakeRules.ticket(s, 6, "h"));
        assertEquals(400, assertThrows(TakeRefused.class, () -> TakeRules.fence(TakeState.none("gitea"), 0, NOW)).status());
    }

    @Test
    void aNewerFenceVoidsTheTicketsOfTheOlderOne() {
        TakeState s = TakeRules.ticket(fencedAt(7), 7, "hash-a");
        assertTrue(TakeRules.ticketValid(s, "hash-a"));
        TakeState newer = TakeRules.fence(s, 8, NOW);
        assertFalse(TakeRules.ticketValid(newer, "hash-a"));
        assertEquals(8, newer.fence().epoch());
    }

    @Test
    void liftingVoidsTicketsKeepsTheEpochAndWithoutAFenceChangesNothing() {
        TakeState s = TakeRules.ticket(fencedAt(7), 7, "hash-a");
        TakeState lifted = TakeRules.lift(s, 7);
        assertNull(lifted.fence());
        assertFalse(TakeRules.ticketValid(lifted, "hash-a"));
        assertEquals(7, lifted.epoch());
        assertSame(lifted, TakeRules.lift(lifted, 7));
        assertThrows(TakeRefused.class, () -> TakeRules.fence(lifted, 6, NOW));
    }

    @Test
    void aTicketNeedsTheFenceAtThatEpochAndAnArchiveNeedsAFence() {
        TakeRefused none = assertThrows(TakeRefused.class, () -> TakeRules.ticket(TakeState.none("gitea"), 3, "h"));
        assertTrue(none.getMessage().contains("module gitea is not fenced here"), none.getMessage());
        TakeRefused other = assertThrows(TakeRefused.class, () -> TakeRules.ticket(fencedAt(3), 4, "h"));
        assertEquals("module gitea is fenced here at epoch 3, not 4", other.getMessage());
        TakeRefused archive = assertThrows(TakeRefused.class, () -> TakeRules.requireArchivable(TakeState.none("gitea"), "data"));
        assertEquals(409, archive.status());
        assertTrue(archive.getMessage().contains("volume data"), archive.getMessage());
        TakeRules.requireArchivable(fencedAt(3), "data");
    }

    @Test
    void aCopyEmptiesOnlyWhatATakePutHereAndNeverWhileTheModuleRuns() {
        TakeState none = TakeState.none("gitea");
        TakeState copying = TakeRules.beginCopy(none, "data", 5, "container", false, false);
        assertEquals(new TakeState.Mark(5, "container"), copying.copies().get("data"));
        // a partial copy of this take, or of an older one, may be emptied
        assertEquals(6, TakeRules.beginCopy(copying, "data", 6, "container", true, false).copies().get("data").epoch());
        TakeRefused foreign = assertThrows(TakeRefused.class, () -> TakeRules.beginCopy(none, "data", 5, "container", true, false));
        assertEquals("volume data of module gitea already holds data that no take left here; nothing was changed",
                foreign.getMessage());
        TakeRefused runs = assertThrows(TakeRefused.class, () -> TakeRules.beginCopy(none, "data", 5, "container", false, true));
        assertTrue(runs.getMessage().startsWith("module gitea runs on this node"), runs.getMessage());
        TakeState old = TakeRules.oldCopy(none, 4, Map.of("data", "container"));
        assertTrue(TakeRules.mayEmpty(old, "data"));
        assertFalse(TakeRules.mayEmpty(old, "other"));
        TakeState back = TakeRules.beginCopy(old, "data", 9, "container", true, false);
        assertFalse(back.oldCopies().containsKey("data"), "the old copy is the new copy now");
    }

    @Test
    void rollbackDeletesOnlyThisEpochsCopyAndForgetOldOnlyTheRecordedOldCopy() {
        TakeState copying = TakeRules.beginCopy(TakeState.none("gitea"), "data", 5, "container", false, false);
        assertFalse(TakeRules.delete(copying, "data", 5, TakeRules.Reason.ROLLBACK, false, false).copies().containsKey("data"));
        assertThrows(TakeRefused.class, () -> TakeRules.delete(copying, "other", 5, TakeRules.Reason.ROLLBACK, false, false));
        assertThrows(TakeRefused.class, () -> TakeRules.delete(copying, "data", 6, TakeRules.Reason.ROLLBACK, false, false));
        assertThrows(TakeRefused.class, () -> TakeRules.delete(copying, "data", 5, TakeRules.Reason.ROLLBACK, true, false));
        TakeRefused notOld = assertThrows(TakeRefused.class,
                () -> TakeRules.delete(copying, "data", 5, TakeRules.Reason.FORGET_OLD, false, false));
        assertEquals("volume data of module gitea is not recorded here as the old copy of the take at epoch 5; nothing was deleted",
                notOld.getMessage());

        TakeState old = TakeRules.oldCopy(TakeState.none("gitea"), 4, Map.of("data", "container"));
        TakeState later = TakeRules.fence(TakeRules.lift(fencedAt(9), 9), 9, NOW);   // a later take of the module elsewhere
        TakeState both = new TakeState("gitea", 9, null, later.tickets(), Map.of(), old.oldCopies());
        assertTrue(TakeRules.delete(both, "data", 4, TakeRules.Reason.FORGET_OLD, false, false).oldCopies().isEmpty(),
                "forget-old names the old copy's epoch, older than the newest take");
        assertThrows(TakeRefused.class, () -> TakeRules.delete(both, "data", 5, TakeRules.Reason.FORGET_OLD, false, false));
        assertThrows(TakeRefused.class, () -> TakeRules.Reason.parse("wipe"));
    }

    @Test
    void namesThatCouldLeaveTheVolumeFolderAreRefused() {
        assertEquals("gitea_2", TakeRules.name("module", "gitea_2"));
        for (String bad : new String[] {"..", "a/b", "", "-x", "a..b", null}) {
            assertEquals(400, assertThrows(TakeRefused.class, () -> TakeRules.name("volume", bad)).status(), bad);
        }
        assertThrows(TakeRefused.class, () -> TakeRules.kind("engine"));
    }

    @Test
    void aPreCopyTicketReadsWhileTheModuleRunsUntilAFenceOrALiftAndANewerTakeVoidsIt() {
        TakeState live = TakeRules.liveTicket(TakeState.none("gitea"), 7, "h1");
        assertEquals(7, live.epoch(), "the pre-copy records its epoch: an older take is refused from here on");
        assertTrue(TakeRules.ticketValid(live, "h1"));
        TakeRules.requireArchivable(live, "data", true);
        assertEquals(409, assertThrows(TakeRefused.class, () -> TakeRules.requireArchivable(live, "data")).status(),
                "a read that is not a pre-copy's still needs the fence");
        assertThrows(TakeRefused.class, () -> TakeRules.liveTicket(live, 6, "old"));
        TakeState twice = TakeRules.liveTicket(live, 7, "h2");
        assertTrue(TakeRules.ticketValid(twice, "h1") && TakeRules.ticketValid(twice, "h2"), "each pass asks for one");
        TakeState newer = TakeRules.liveTicket(twice, 8, "h3");
        assertFalse(TakeRules.ticketValid(newer, "h1"), "a newer take voids the older one's pre-copy tickets");
        TakeState fenced = TakeRules.fence(newer, 8, NOW);
        assertFalse(TakeRules.ticketValid(fenced, "h3"), "the fence voids the pre-copy tickets");
        assertEquals(409, assertThrows(TakeRefused.class, () -> TakeRules.liveTicket(fenced, 8, "h4")).status(),
                "no pre-copy ticket under a fence");
        TakeState lifted = TakeRules.lift(newer, 8);
        assertFalse(TakeRules.ticketValid(lifted, "h3"), "a rollback's lift voids them too, fence or not");
        assertEquals(409, assertThrows(TakeRefused.class, () -> TakeRules.requireArchivable(lifted, "data", true)).status());
        TakeState many = live;
        for (int i = 0; i < 40; i++) {
            many = TakeRules.liveTicket(many, 7, "t" + i);
        }
        assertEquals(TakeRules.LIVE_TICKETS, many.liveTickets().size(), "only the newest are kept");
        assertTrue(TakeRules.ticketValid(many, "t39"));
    }

    @Test
    void aPassKeepsOnlyThisTakesCopy() {
        TakeState copying = TakeRules.beginCopy(TakeState.none("gitea"), "data", 7, "container", false, false);
        assertTrue(TakeRules.keepsCopy(copying, "data", 7));
        assertFalse(TakeRules.keepsCopy(copying, "data", 8), "another take's copy is emptied first");
        assertFalse(TakeRules.keepsCopy(copying, "files", 7));
    }

    @Test
    void aTargetFencedToCreateItsContainersIsLiftedByTheRollbacksDeleteOnlyOfThatTakesCopy() {
        TakeState created = TakeRules.fenceToCreate(TakeRules.beginCopy(TakeState.none("gitea"), "data", 7, "container", false,
                false), 7, NOW, false);
        assertTrue(created.fence().created());
        assertEquals(7, created.fence().epoch());
        assertSame(created, TakeRules.fenceToCreate(created, 7, NOW.plusSeconds(5), false), "the same epoch again: the same");
        assertEquals(409, assertThrows(TakeRefused.class, () -> TakeRules.fenceToCreate(TakeState.none("gitea"), 7, NOW, true))
                .status(), "never while the module runs here");
        assertThrows(TakeRefused.class, () -> TakeRules.fenceToCreate(fencedAt(7), 7, NOW, false),
                "not over the take's own fence (its source, or its target stopped by the rollback)");
        TakeState rolledBack = TakeRules.delete(created, "data", 7, TakeRules.Reason.ROLLBACK, false, false);
        assertNull(rolledBack.fence(), "the rollback's delete of its copy lifts the fence its containers were created under");
        assertTrue(rolledBack.copies().isEmpty());
        TakeState stopped = TakeRules.fence(created, 7, NOW);
        assertFalse(stopped.fence().created(), "a fence at the same epoch (stop-target) makes it the take's own");
        assertEquals(7, TakeRules.delete(stopped, "data", 7, TakeRules.Reason.ROLLBACK, false, false).fence().epoch(),
                "which only the unfence lifts");
        assertEquals(7, TakeRules.delete(TakeRules.beginCopy(fencedAt(7), "data", 7, "container", false, false), "data", 7,
                TakeRules.Reason.ROLLBACK, false, false).fence().epoch(), "a fence of the take's own stays");
        assertThrows(TakeRefused.class, () -> TakeRules.fenceToCreate(created, 6, NOW, false), "an older epoch");
        assertTrue(TakeRules.fenceToCreate(created, 8, NOW, false).fence().created(), "a newer take's replaces it");
    }

    /**
     * A take back into a done take's source that its push missed (its declaration still runs the module, its fence
     * at the first take's epoch): the take back's created fence replaces that fence, and when the take back rolls
     * back before its start, its delete must not lift the fence, or the next pass starts the module there from that
     * declaration while it runs where the take back came from.
     */
    @Test
    void aRollbacksDeleteLeavesTheCreatedFenceWhenTheDeclarationHereRunsTheModule() {
        TakeState source = TakeRules.oldCopy(fencedAt(4), 4, Map.of("data", "container"));
        TakeState created = TakeRules.fenceToCreate(TakeRules.beginCopy(source, "data", 7, "container", true, false), 7,
                NOW.plusSeconds(60), false);
        assertTrue(created.fence().created(), "the created fence replaced the first take's");

        TakeState kept = TakeRules.delete(created, "data", 7, TakeRules.Reason.ROLLBACK, false, true);
        assertEquals(new TakeState.Fence(7, NOW.plusSeconds(60).toString(), false), kept.fence(),
                "the fence stays at the take's epoch, its own now");
        assertTrue(kept.copies().isEmpty(), "the copy is deleted all the same");
        assertEquals(7, kept.epoch());
        assertEquals(kept.fence(), TakeRules.delete(TakeRules.beginCopy(kept, "files", 7, "process", false, false), "files",
                7, TakeRules.Reason.ROLLBACK, false, false).fence(), "a later volume's delete leaves it too, whatever is declared");
        assertNull(TakeRules.lift(kept, 7).fence(), "a take's lift at its epoch lifts it");
        assertTrue(TakeRules.fenceToCreate(kept, 8, NOW, false).fence().created(), "a newer take's created fence replaces it");
        assertNull(TakeRules.delete(created, "data", 7, TakeRules.Reason.ROLLBACK, false, false).fence(),
                "without the module in the declaration here, the same delete lifts it");
    }

    @Test
    void aDeclarationDeclaresAModuleWhenOneOfItsComponentsIsOfIt() {
        Declaration d = new Declaration("n1", null, 3, List.of(
                Specs.component("gitea.web").module("gitea").image("gitea:1").build(),
                Specs.component("db.pg").module("db").image("postgres:16").build()));
        assertTrue(TakeRules.declares(d, "gitea"));
        assertFalse(TakeRules.declares(d, "wiki"));
        assertFalse(TakeRules.declares(new Declaration("n1", null, 4, List.of()), "gitea"));
        assertFalse(TakeRules.declares(null, "gitea"), "no declaration yet");
    }
}
