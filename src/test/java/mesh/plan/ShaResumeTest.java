package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ShaResumeTest: the verify's hash resumes from the last checkpoint at or before the first byte that changed, never after. */
class ShaResumeTest {

    static final int MIB = 1 << 20;
    static final long GIB = 1L << 30;

    @ParameterizedTest(name = "{0} bytes: a checkpoint every {1}")
    @CsvSource({
        "0, 1048576",
        "1048576, 1048576",
        "1073741823, 1048576",   // just under 1 GiB: 1023 checkpoints after the one at 0
        "1073741824, 2097152",   // 1 GiB: 1024 would be one too many
        "4294967296, 8388608",   // 4 GiB
        "1099511627776, 1073741824",   // 1 TiB: capped at 1 GiB apart
    })
    void theSpacingKeepsAFilesCheckpointsFewAndAPowerOfTwo(long size, int every) {
        assertEquals(every, ShaResume.every(size));
        assertEquals(1, Integer.bitCount(every));
        assertTrue(size / every < ShaResume.MAX_CHECKPOINTS || every == 1 << 30);
    }

    @ParameterizedTest(name = "kept {0}, changed at {1}: resume from checkpoint {2}")
    @CsvSource({
        // an append to a 5 MiB + 1000 file (checkpoints at 0..5 MiB): the tail only, from the last checkpoint
        "6, 5243880, 5",
        // a block changed in place at 3 MiB + 17: from the checkpoint at 3 MiB, not after it
        "9, 3145745, 3",
        // a write exactly on a checkpoint: that checkpoint's state holds only the bytes before it
        "9, 3145728, 3",
        // a write one byte before a checkpoint: the one before
        "9, 3145727, 2",
        // the first byte changed: from the empty digest
        "9, 0, 0",
        // nothing written past the end: the last checkpoint kept
        "4, 104857600, 3",
        // only the empty digest kept: from 0 whatever changed
        "1, 5000000, 0",
    })
    void resumesFromTheLastCheckpointAtOrBeforeTheFirstChangedByte(int kept, long changed, int from) {
        int i = ShaResume.from(kept, MIB, changed);
        assertEquals(from, i);
        assertTrue((long) i * MIB <= changed, "a checkpoint after the change would hold bytes that are no longer there");
    }

    @Test
    void nothingToResumeFromIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ShaResume.from(0, MIB, 5));
        assertThrows(IllegalArgumentException.class, () -> ShaResume.from(3, 4096, 5));
    }

    @Test
    void aFileThatGrowsPastItsCheckpointsKeepsEveryOtherOneAndNeverDenser() {
        assertEquals(MIB, ShaResume.respaced(MIB, 10 * MIB));
        assertEquals(2 * MIB, ShaResume.respaced(MIB, GIB));
        assertEquals(8 * MIB, ShaResume.respaced(8 * MIB, 10 * MIB), "a file cut short keeps its spacing");
        assertTrue(ShaResume.keeps(4, MIB, 2 * MIB));
        assertFalse(ShaResume.keeps(5, MIB, 2 * MIB));
        assertTrue(ShaResume.keeps(0, MIB, 8 * MIB));
    }
}
