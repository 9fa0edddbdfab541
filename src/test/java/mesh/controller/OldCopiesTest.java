package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mesh.host.take.TakeRefused;
import mesh.host.take.TakeRules;
import mesh.host.take.TakeState;
import org.junit.jupiter.api.Test;

/**
 * OldCopiesTest: forget-old passes over a volume the agent no longer records as the old copy of that take (a later
 * take emptied it), and over nothing else. The refusal it reads is the agent's own, made by {@link TakeRules}.
 */
class OldCopiesTest {

    /** The agent's words when the volume's old-copy mark of epoch 5 is gone (a later take's copy moved it). */
    static String refusal(String volume, long epoch) {
        TakeState none = TakeState.none("tk");
        try {
            TakeRules.delete(none, volume, epoch, TakeRules.Reason.FORGET_OLD, false);
        } catch (TakeRefused e) {
            return "node n1's agent refused (409): " + e.getMessage();
        }
        throw new AssertionError("the agent deleted what it does not record");
    }

    @Test
    void aVolumeNoLongerRecordedAsThatOldCopyIsAlreadyGone() {
        assertTrue(OldCopies.alreadyGone(409, refusal("bulk", 5), "bulk", 5));
    }

    @Test
    void anyOtherRefusalIsNot() {
        assertFalse(OldCopies.alreadyGone(409, refusal("bulk", 5), "files", 5), "another volume");
        assertFalse(OldCopies.alreadyGone(409, refusal("bulk", 5), "bulk", 6), "another epoch");
        assertFalse(OldCopies.alreadyGone(409, "node n1's agent refused (409): module tk runs on this node: volume bulk is not deleted",
                "bulk", 5), "the module runs there");
        assertFalse(OldCopies.alreadyGone(0, "node n1's agent did not answer", "bulk", 5), "the agent did not answer");
        assertFalse(OldCopies.alreadyGone(409, null, "bulk", 5));
    }
}
