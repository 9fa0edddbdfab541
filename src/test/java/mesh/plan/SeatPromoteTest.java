package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import mesh.plan.SeatPromote.Step;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SeatPromoteTest {

    @ParameterizedTest(name = "done [{0}]: next {1}")
    @CsvSource(delimiter = '|', value = {
            "|CHECK",
            "CHECK|STORE",
            "CHECK STORE|CERTIFICATE",
            "CHECK STORE CERTIFICATE|CONTROLLER",
            "STORE CERTIFICATE|CHECK",                            // a resumed promote checks the machine again first
            "CHECK STORE CERTIFICATE CONTROLLER AGENTS|CONFIG",
            "CHECK STORE CERTIFICATE CONTROLLER AGENTS CONFIG|none",
            "STORE CERTIFICATE CONTROLLER AGENTS CONFIG|none",
            "CHECK STORE CONTROLLER|CERTIFICATE",                 // the first not done, whatever came after
    })
    void aPromoteCutShortResumesAtTheFirstStepNotDone(String done, String next) {
        Set<Step> steps = done == null ? EnumSet.noneOf(Step.class)
                : Stream.of(done.split(" ")).map(Step::valueOf).collect(Collectors.toCollection(() -> EnumSet.noneOf(Step.class)));
        assertEquals(next.equals("none") ? Optional.empty() : Optional.of(Step.valueOf(next)), SeatPromote.next(steps));
    }

    @ParameterizedTest(name = "store {0}, chosen {1}, now {2}: {3}")
    @CsvSource({
            "1000, 0,    5000, 5000",   // a millisecond timestamp, above the deposed seat's
            "9000, 0,    5000, 9001",   // a clock behind the deposed seat's epoch still goes above it
            "1000, 6000, 7000, 6000",   // a resumed promote keeps the epoch it chose: agents may have it
            "6000, 6000, 7000, 7000",   // the store already at it (the controller ran): a new one above
    })
    void thePromotedSeatRunsAtTheNextEpoch(long store, long chosen, long now, long epoch) {
        assertEquals(epoch, SeatPromote.epoch(store, chosen, now));
    }

    @Test
    void onlyTheNamedStandbyHoldingTheKeysIsPromoted() {
        Set<String> keys = Set.copyOf(SeatKeys.NEEDED);
        assertEquals(List.of(), SeatPromote.problems("n2", "n2", keys));
        assertEquals(List.of("this machine is node n3, not n2: run 'mesh seat promote n2' on n2"), SeatPromote.problems("n2", "n3", keys));
        assertEquals(List.of("the seat's key tls/ca.key is not here: this node is not a standby ('mesh seat add n2')"),
                SeatPromote.problems("n2", "n2", Set.of("install/secrets.key", "install/store-password", "install/controller-token")));
        assertEquals(1 + SeatKeys.NEEDED.size(), SeatPromote.problems("n2", null, Set.of()).size());
    }

    @ParameterizedTest(name = "{1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "https://n2:7700|https://ace:7700|https://n2:7700,https://ace:7700",
            "https://n2:7700|https://ace:7700,https://n2:7700|https://n2:7700,https://ace:7700",
            "https://n2:7700||https://n2:7700",
            "https://n2:7700| https://ace:7700 ,,|https://n2:7700,https://ace:7700",
    })
    void theOperatorsConfigNamesTheNewSeatFirstAndKeepsTheOld(String seat, String before, String after) {
        assertEquals(after, SeatPromote.controllers(seat, before));
    }

    @ParameterizedTest(name = "{0} + standby -> {1}")
    @CsvSource(delimiter = '|', value = {
            "https://ace:7700|https://ace:7700,https://n2:7700",
            "https://ace:7700,https://n2:7700|https://ace:7700,https://n2:7700",   // a second add changes nothing
            "|https://n2:7700",
    })
    void theOperatorsConfigNamesTheStandbyAfterTheSeat(String before, String after) {
        assertEquals(after, SeatPromote.withStandby(before, "https://n2:7700"));
    }

    @Test
    void aPromoteSaysWhatItMayLose() {
        Instant heard = Instant.parse("2026-12-07T05:00:00Z");
        Instant replayed = Instant.parse("2026-12-07T04:59:58Z");
        assertEquals("no mark from the seat that this standby was out of sync reached it (last heard from the seat:"
                + " 2026-12-07T05:00:00Z): nothing the seat acknowledged is missing here, unless the seat ran on, cut off from"
                + " this standby, for more than 10 s; the last change replayed here was committed on the seat at"
                + " 2026-12-07T04:59:58Z",
                SeatPromote.lossWords(heard, replayed, null));
        assertEquals("the seat had recorded this standby out of sync since 2026-12-07T04:50:00Z: what it committed after"
                + " 2026-12-07T04:50:10Z (when it stopped waiting for this standby) may be missing here; the last change"
                + " replayed here was committed on the seat at 2026-12-07T04:59:58Z",
                SeatPromote.lossWords(heard, replayed, Instant.parse("2026-12-07T04:50:00Z")));
        assertEquals("no mark from the seat that this standby was out of sync reached it (last heard from the seat: not"
                + " connected now): nothing the seat acknowledged is missing here, unless the seat ran on, cut off from this"
                + " standby, for more than 10 s; the last change replayed here was committed on the seat at (none)",
                SeatPromote.lossWords(null, null, null));
    }
}
