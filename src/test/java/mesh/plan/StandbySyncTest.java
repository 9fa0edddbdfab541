package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import mesh.plan.StandbySync.Change;
import mesh.plan.StandbySync.Replica;
import mesh.plan.StandbySync.State;
import mesh.plan.StandbySync.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StandbySyncTest {

    static final Instant NOW = Instant.parse("2026-12-06T02:00:00Z");

    @ParameterizedTest(name = "{0} lag {1}, synchronous {2}, away for {3} s: {4}, {5}")
    @CsvSource({
            // replica state (none: no row), lag bytes, synchronous now, seconds out of sync (-1: in sync at the last look), state, change
            "streaming, 0,    true,  -1, IN_SYNC,     NONE",
            "streaming, 0,    false, -1, IN_SYNC,     MAKE_SYNCHRONOUS",   // back in sync: synchronous again
            "streaming, 0,    false, 60, IN_SYNC,     MAKE_SYNCHRONOUS",
            "streaming, 4096, false, -1, CATCHING_UP, NONE",               // caught up first, then synchronous
            "streaming, 4096, true,  -1, CATCHING_UP, NONE",               // just fell behind: the deadline starts now
            "streaming, 4096, true,  10, CATCHING_UP, MAKE_ASYNCHRONOUS",
            "none,      0,    true,  9,  AWAY,        NONE",               // away, still within the deadline: commits wait
            "none,      0,    true,  10, AWAY,        MAKE_ASYNCHRONOUS",  // the deadline passed: the seat commits alone
            "none,      0,    false, 600, AWAY,       NONE",
            "startup,   0,    true,  30, AWAY,        MAKE_ASYNCHRONOUS",
    })
    void theSeatKeepsWorkingWhileItsStandbyIsAway(String replica, long lag, boolean synchronous, long awaySeconds,
                                                 State state, Change change) {
        List<Replica> rows = replica.equals("none") ? List.of(new Replica("other", "streaming", "async", 0))
                : List.of(new Replica("n2", replica, synchronous ? "sync" : "async", lag));
        Instant since = awaySeconds < 0 ? null : NOW.minusSeconds(awaySeconds);
        Verdict v = StandbySync.of("n2", rows, synchronous, since, NOW);
        assertEquals(state, v.state(), v.words());
        assertEquals(change, v.change(), v.words());
        if (state == State.IN_SYNC) {
            assertNull(v.outOfSyncSince());
        } else {
            assertEquals(since == null ? NOW : since, v.outOfSyncSince(), "since when is kept from the first look");
            assertTrue(v.words().contains("not in sync since " + v.outOfSyncSince()), v.words());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "-1|standby n2: in sync, synchronous",
            "5|standby n2: not in sync since 2026-12-06T01:59:55Z (not connected to the seat); the seat's commits wait for it until 2026-12-06T02:00:05Z",
            "30|standby n2: not in sync since 2026-12-06T01:59:30Z (not connected to the seat); the seat commits without it until it is back in sync",
    })
    void statusSaysSinceWhenAndWhetherCommitsWait(long awaySeconds, String words) {
        List<Replica> rows = awaySeconds < 0 ? List.of(new Replica("n2", "streaming", "sync", 0)) : List.of();
        assertEquals(words, StandbySync.of("n2", rows, true, awaySeconds < 0 ? null : NOW.minusSeconds(awaySeconds), NOW).words());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"n2|\"n2\"", "''|''", "n\"2|\"n2\"", "n2 n4|FIRST 2 (\"n2\", \"n4\")",
            "n4 n2 n5|FIRST 3 (\"n4\", \"n2\", \"n5\")"})
    void theStandbyNamesSettingNamesOneAloneAndSeveralAllWaitedFor(String standbys, String value) {
        List<String> names = standbys.isEmpty() ? List.of() : List.of(standbys.split(" "));
        assertEquals(value, StandbySync.standbyNames(names));
        assertEquals(new TreeSet<>(names.stream().map(n -> n.replace("\"", "")).toList()), StandbySync.namedIn(value),
                "read back as written");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"n2, n4|n2 n4", "\"n2\"|n2", "ANY 1 (n2, \"n4\")|n2 n4", "first 2 (\"n2\",\"n4\")|n2 n4",
            "''|''", "2 (n2, n4)|n2 n4"})
    void theNamesAreReadFromEveryFormPostgreSqlTakes(String setting, String names) {
        assertEquals(names.isEmpty() ? Set.of() : new TreeSet<>(List.of(names.split(" "))), StandbySync.namedIn(setting));
    }

    /**
     * Two standbys: each one's verdict decides only whether it is in the set; the setting then names every one in it,
     * so a commit waits for each (the last one looked at no longer overwrites the first).
     */
    @Test
    void withTwoStandbysEachInSyncIsSynchronousAndOneAwayTooLongIsLetGo() {
        List<Replica> rows = List.of(new Replica("n2", "streaming", "sync", 0), new Replica("n4", "streaming", "async", 0));
        Map<String, Verdict> bothInSync = new LinkedHashMap<>();
        bothInSync.put("n2", StandbySync.of("n2", rows, true, null, NOW));
        bothInSync.put("n4", StandbySync.of("n4", rows, false, null, NOW));
        assertEquals(new TreeSet<>(Set.of("n2", "n4")), StandbySync.synchronousAfter(bothInSync, Set.of("n2")));

        List<Replica> n4Away = List.of(new Replica("n2", "streaming", "sync", 0));
        Map<String, Verdict> waiting = new LinkedHashMap<>();
        waiting.put("n2", StandbySync.of("n2", n4Away, true, null, NOW));
        waiting.put("n4", StandbySync.of("n4", n4Away, true, NOW.minusSeconds(5), NOW));
        assertEquals(new TreeSet<>(Set.of("n2", "n4")), StandbySync.synchronousAfter(waiting, Set.of("n2", "n4")),
                "within the deadline the seat's commits still wait for n4");

        Map<String, Verdict> overdue = new LinkedHashMap<>();
        overdue.put("n2", StandbySync.of("n2", n4Away, true, null, NOW));
        overdue.put("n4", StandbySync.of("n4", n4Away, true, NOW.minusSeconds(10), NOW));
        assertEquals(new TreeSet<>(Set.of("n2")), StandbySync.synchronousAfter(overdue, Set.of("n2", "n4")),
                "n4 let go, n2 still waited for");
        assertEquals(new TreeSet<>(), StandbySync.synchronousAfter(Map.of(), Set.of("old")), "a name no standby has is dropped");
    }
}
