package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mesh.plan.BlockDelta.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** BlockDeltaTest: which ranges of a changed file a pass sends, per kind of change, as a table (blocks of 4 bytes). */
class BlockDeltaTest {

    static final int B = 4;

    /** Per-block hashes of {@code text} as the real sides would take them: one number per block's bytes. */
    static long[] hashes(String text) {
        long[] h = new long[BlockDelta.blocks(text.length(), B)];
        for (int i = 0; i < h.length; i++) {
            h[i] = text.substring(i * B, Math.min(text.length(), (i + 1) * B)).hashCode();
        }
        return h;
    }

    static List<Range> ranges(long... offsetLength) {
        List<Range> r = new ArrayList<>();
        for (int i = 0; i < offsetLength.length; i += 2) {
            r.add(new Range(offsetLength[i], offsetLength[i + 1]));
        }
        return r;
    }

    static Stream<Arguments> changes() {
        return Stream.of(
                Arguments.of("the same: nothing", "aaaabbbbcc", "aaaabbbbcc", ranges()),
                Arguments.of("appended within the short last block: that block", "aaaabbbbcc", "aaaabbbbccc", ranges(8, 3)),
                Arguments.of("appended past whole blocks: the tail", "aaaabbbb", "aaaabbbbccccdd", ranges(8, 6)),
                Arguments.of("one block changed in place", "aaaabbbbcccc", "aaaaXbbbcccc", ranges(4, 4)),
                Arguments.of("two apart: two ranges", "aaaabbbbccccdddd", "Xaaabbbbcccc-ddd", ranges(0, 4, 12, 4)),
                Arguments.of("adjacent blocks merged", "aaaabbbbccccdddd", "aaaaXbbbXcccdddd", ranges(4, 8)),
                Arguments.of("truncated on a block's edge: nothing sent", "aaaabbbbcccc", "aaaabbbb", ranges()),
                Arguments.of("truncated inside a block: that block", "aaaabbbbcccc", "aaaabbbbcc", ranges(8, 2)),
                Arguments.of("emptied: nothing sent", "aaaabbbb", "", ranges()),
                Arguments.of("the target's copy empty: all", "", "aaaabb", ranges(0, 6)),
                Arguments.of("changed and grown", "aaaabbbb", "aaaaXbbbcccc", ranges(4, 8)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void sendsOnlyWhatDiffers(String why, String target, String source, List<Range> expected) {
        BlockDelta d = BlockDelta.of(hashes(source), source.length(), hashes(target), target.length(), B);
        assertEquals(expected, d.ranges(), why);
        assertEquals(source.length(), d.size(), why);
        assertEquals(expected.stream().mapToLong(Range::length).sum(), d.bytes(), why);
    }

    @Test
    void aLastBlockOfAnotherLengthIsSentEvenWithTheSameHash() {
        // the target's short last block and the source's full one could only share a hash by chance: length decides
        assertEquals(true, BlockDelta.sends(1, 7, 8, new long[] {1, 7}, 6, B));
        assertEquals(false, BlockDelta.sends(1, 7, 8, new long[] {1, 7}, 8, B));
    }

    @Test
    void blocksAreOneMebibyteUpToSixtyFourGibibytesThenGrowSoTheirNumberStaysBounded() {
        assertEquals(1 << 20, BlockDelta.blockFor(0));
        assertEquals(1 << 20, BlockDelta.blockFor(4L << 30));
        assertEquals(1 << 20, BlockDelta.blockFor(64L << 30));
        assertEquals(2 << 20, BlockDelta.blockFor((64L << 30) + 1));
        long huge = 10L << 40;
        assertEquals(true, BlockDelta.blocks(huge, BlockDelta.blockFor(huge)) <= BlockDelta.MAX_BLOCKS);
    }

    @Test
    void aFileGoesByRangeOnlyWhenTheTargetHoldsABlockOfItWithTheSameModeAndOwner() {
        mesh.model.VolumeIndex.Entry big = new mesh.model.VolumeIndex.Entry("db", "file", 5 << 20, 1, "0600", 999, 999, null);
        mesh.model.VolumeIndex.Entry grown = new mesh.model.VolumeIndex.Entry("db", "file", 6 << 20, 2, "0600", 999, 999, null);
        assertEquals(true, BlockDelta.ranged(grown, big));
        assertEquals(false, BlockDelta.ranged(grown, null), "not on the target: whole");
        assertEquals(false, BlockDelta.ranged(grown, new mesh.model.VolumeIndex.Entry("db", "file", (1 << 20) - 1, 1,
                "0600", 999, 999, null)), "less than a block there: whole");
        assertEquals(false, BlockDelta.ranged(grown, new mesh.model.VolumeIndex.Entry("db", "file", 5 << 20, 1, "0644",
                999, 999, null)), "another mode: whole, tar sets it");
        assertEquals(false, BlockDelta.ranged(grown, new mesh.model.VolumeIndex.Entry("db", "file", 5 << 20, 1, "0600",
                0, 999, null)), "another owner: whole");
        assertEquals(false, BlockDelta.ranged(grown, new mesh.model.VolumeIndex.Entry("db", "link", 0, 1, "0600", 999,
                999, "x")), "a link there: whole");
    }
}
