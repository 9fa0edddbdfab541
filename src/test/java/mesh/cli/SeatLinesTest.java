package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.wire.SeatsView;
import org.junit.jupiter.api.Test;

class SeatLinesTest {

    @Test
    void aMeshWithoutAStandbyGetsNoSeatLines() {
        assertEquals(List.of(), SeatLines.of(null));
        assertEquals(List.of(), SeatLines.of(new SeatsView("ace", 7, List.of())));
    }

    @Test
    void statusShowsTheSeatAndEachStandbyWithItsLag() {
        SeatsView v = new SeatsView("ace", 7, List.of(
                new SeatsView.Standby("n2", "IN_SYNC", true, 0, null, "standby n2: in sync, synchronous"),
                new SeatsView.Standby("n3", "AWAY", false, -1, "2026-12-06T01:59:30Z",
                        "standby n3: not in sync since 2026-12-06T01:59:30Z (not connected to the seat); the seat commits without it until it is back in sync")));
        assertEquals(List.of("seat ace at epoch 7, 2 standbys",
                "standby n2: in sync, synchronous (lag 0 B)",
                "standby n3: not in sync since 2026-12-06T01:59:30Z (not connected to the seat); the seat commits without it until it is back in sync"),
                SeatLines.of(v));
    }
}
