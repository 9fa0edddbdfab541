package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SeatEpochTest {

    @ParameterizedTest(name = "seen {0} on {1}, call at {2} from {3}: refused {4}, newest then {5}")
    @CsvSource({
            // seen, seat, caller, callerSeat, refused, newest after
            "0,   '',   0,  '',   false, 0",   // a plain-HTTP mesh's controllers name no epoch: nothing kept, nothing refused
            "0,   '',   7,  ace,  false, 7",   // the first controller that names one is kept
            "7,   ace,  7,  ace,  false, 7",   // the same controller (or its restart)
            "7,   ace,  9,  n2,   false, 9",   // a promoted seat: taken at once
            "9,   n2,   7,  ace,  true,  9",   // the deposed seat: refused, and it does not lower what is kept
            "9,   n2,   0,  '',   false, 9",   // a call naming no epoch (the installer's) is not judged
    })
    void anOlderControllerIsRefusedAndNeverLowersTheEpochKept(long seen, String seat, long caller, String callerSeat,
                                                             boolean refused, long newest) {
        SeatEpoch kept = new SeatEpoch(seen, seat);
        SeatEpoch call = new SeatEpoch(caller, callerSeat);
        assertEquals(refused, kept.refusal(call) != null, String.valueOf(kept.refusal(call)));
        assertEquals(newest, kept.after(call).epoch());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|this controller on ace (epoch 7) was replaced by the seat on n2 at epoch 9; this agent refuses every change"
                    + " from it; use the controller on n2",
            "https://n2:7700|this controller on ace (epoch 7) was replaced by the seat on n2 at epoch 9; this agent refuses"
                    + " every change from it; use the controller on n2 (https://n2:7700)",
    })
    void theRefusalNamesTheDeposedControllerAndTheCurrentSeat(String url, String refusal) {
        assertEquals(refusal, new SeatEpoch(9, "n2", url).refusal(new SeatEpoch(7, "ace", "https://ace:7700")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"9 n2|9|n2|''", "9|9|''|''", "''|0|''|''", "x n2|0|''|''",
            "17 n2 https://10.77.0.12:7700|17|n2|https://10.77.0.12:7700", "17  n2   https://n2:7700 \\n|17|n2|https://n2:7700"})
    void theKeptLineReadsBackAndAnUnreadableOneIsNone(String line, long epoch, String seat, String url) {
        SeatEpoch read = SeatEpoch.parse(line.replace("\\n", "\n"));
        assertEquals(new SeatEpoch(epoch, seat, url), read);
        if (epoch > 0) {
            assertEquals(read, SeatEpoch.parse(read.line()));
        }
        assertNull(SeatEpoch.NONE.refusal(read));
    }
}
