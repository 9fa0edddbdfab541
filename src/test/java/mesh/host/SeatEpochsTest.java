package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import mesh.plan.SeatEpoch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeatEpochsTest {

    private static final SeatEpoch OLD_SEAT = new SeatEpoch(7, "ace");
    private static final SeatEpoch NEW_SEAT = new SeatEpoch(9, "n2", "https://10.77.0.12:7700");

    @Test
    void anAgentRestartedAfterAPromoteStillRefusesTheDeposedSeat(@TempDir Path state) throws Exception {
        SeatEpochs before = new SeatEpochs(state);
        assertNull(before.hear(OLD_SEAT, true));
        assertNull(before.hear(NEW_SEAT, false), "a look from the promoted seat raises the epoch too");
        assertEquals("9 n2 https://10.77.0.12:7700", Files.readString(state.resolve(SeatEpochs.FILE)).strip());

        SeatEpochs after = new SeatEpochs(state);   // the agent restarted
        assertEquals(NEW_SEAT, after.newest());
        String refusal = after.hear(OLD_SEAT, true);
        assertTrue(refusal != null && refusal.contains("on ace (epoch 7)") && refusal.contains("on n2 at epoch 9"), refusal);
        assertNull(after.hear(OLD_SEAT, false), "the deposed seat may still look");
        assertNull(after.hear(NEW_SEAT, true));
        assertEquals(NEW_SEAT, after.newest(), "the deposed seat's calls never lower the epoch kept");
    }

    @Test
    void aJoinedNodesFirstCallIsKeptBeforeAnythingMadeItsStateFolder(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("state/host");
        assertNull(new SeatEpochs(state).hear(NEW_SEAT, true));
        assertEquals(NEW_SEAT, new SeatEpochs(state).newest());
    }

    @Test
    void callsThatNameNoEpochAreNeitherKeptNorRefused(@TempDir Path state) {
        SeatEpochs epochs = new SeatEpochs(state);
        assertNull(epochs.hear(SeatEpoch.NONE, true));
        assertEquals(SeatEpoch.NONE, epochs.newest());
        assertTrue(Files.notExists(state.resolve(SeatEpochs.FILE)));
        epochs.hear(NEW_SEAT, true);
        assertNull(epochs.hear(SeatEpoch.ofHeaders(null, null, null), true), "the installer's own calls name no epoch");
        assertNull(epochs.hear(SeatEpoch.ofHeaders("not a number", "x", null), true));
    }
}
