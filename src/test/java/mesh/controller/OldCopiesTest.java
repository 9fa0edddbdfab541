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

    /** The agent's reason when the volume's old-copy mark of epoch 5 is gone (a later take's copy moved it). */
    static mesh.wire.Reason refusal(String volume, long epoch) {
        TakeState none = TakeState.none("tk");
        try {
            TakeRules.delete(none, volume, epoch, TakeRules.Reason.FORGET_OLD, false, false);
        } catch (TakeRefused e) {
            return e.reason();
        }
        throw new AssertionError("the agent deleted what it does not record");
    }

    @Test
    void aVolumeNoLongerRecordedAsThatOldCopyIsAlreadyGone() {
        assertTrue(OldCopies.alreadyGone(refusal("bulk", 5)));
    }

    @Test
    void anyOtherRefusalIsNot() {
        TakeState running = TakeState.none("tk");
        mesh.wire.Reason runs = null;
        try {
            TakeRules.delete(running, "bulk", 5, TakeRules.Reason.FORGET_OLD, true, false);
        } catch (TakeRefused e) {
            runs = e.reason();
        }
        assertFalse(OldCopies.alreadyGone(runs), "the module runs there: " + runs);
        assertFalse(OldCopies.alreadyGone(null), "the agent did not answer, or is older than reasons");
        assertFalse(OldCopies.alreadyGone(mesh.wire.Reason.NOT_TAKES_COPY), "a rollback's refusal");
        assertFalse(OldCopies.alreadyGone(mesh.wire.Reason.CONFLICT));
    }
}
