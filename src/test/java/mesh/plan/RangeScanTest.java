package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * RangeScanTest: how a range answer's file is cut in pieces for the hashing threads and in which order they go (the
 * appended tail first), and from which interval SHA-256 resumes once it is known, never before.
 */
class RangeScanTest {

    static final int MIB = 1 << 20;

    /** The pieces as "first+count" with "h" when hashed and "#i" for the interval they span, in their order. */
    static String pieces(long size, int targetBlocks, int every, int kept) {
        return RangeScan.pieces(size, MIB, targetBlocks, every, kept).stream()
                .map(p -> p.first() + "+" + p.count() + (p.hashed() ? "h" : "") + (p.interval() >= 0 ? "#" + p.interval() : ""))
                .collect(Collectors.joining(" "));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // no checkpoints, the target holds the whole file: pieces of 8 blocks, in file order
        "no checkpoints, same size          | 20971520 | 20 | 0       | 0 | 0+8h 8+8h 16+4h",
        // an append past the target's 12 blocks: the piece wholly past it first, then the rest in order
        "append, no checkpoints             | 26214400 | 12 | 0       | 0 | 16+8 24+1 0+8h 8+8h",
        // checkpoints every 2 MiB, 4 kept: one piece an interval, then pieces of 8 past them
        "checkpoints, append past them      | 20971520 | 10 | 2097152 | 4 | 16+4 0+2h#0 2+2h#1 4+2h#2 6+2h#3 8+8h",
        // the target lacks kept intervals (it is behind the warm manifest): they come first, still fingerprinted
        "target behind the kept intervals   | 10485760 | 3  | 2097152 | 4 | 4+2#2 6+2#3 8+2 0+2h#0 2+2h#1",
        // the file shrank inside the kept intervals: only whole ones in the file are compared
        "shrank                             | 5767168  | 8  | 2097152 | 4 | 0+2h#0 2+2h#1 4+2h",
        // an interval not a whole number of blocks: none used
        "spacing under a block              | 4194304  | 4  | 524288  | 8 | 0+4h",
        "empty file                         | 0        | 0  | 0       | 0 | ''",
    })
    void piecesAndTheirOrder(String name, long size, int targetBlocks, int every, int kept, String expected) {
        assertEquals(expected, pieces(size, targetBlocks, every, kept));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "all known the same: past the last    | 1111 | 4",
        "the first differs                     | 2111 | 0",
        "one unknown before the first differs  | 1021 | -1",
        "the first that differs, later unknown | 1200 | 1",
        "nothing known                         | 0000 | -1",
        "no intervals: from the start          | ''   | 0",
    })
    void resumeOnlyOnceKnown(String name, String states, int at) {
        byte[] s = new byte[states.length()];
        for (int i = 0; i < s.length; i++) {
            s[i] = (byte) (states.charAt(i) - '0');
        }
        assertEquals(at, RangeScan.resumeAt(s));
    }

    @ParameterizedTest(name = "{0} bytes, target {1} blocks")
    @CsvSource({"1073741824, 1024", "4294967296, 4000", "5, 0", "104857600, 0"})
    void everyBlockIsInExactlyOnePiece(long size, int targetBlocks) {
        int every = ShaResume.every(size);
        List<RangeScan.Piece> pieces = RangeScan.pieces(size, MIB, targetBlocks, every, (int) (size / every));
        boolean[] seen = new boolean[BlockDelta.blocks(size, MIB)];
        pieces.forEach(p -> {
            for (int b = p.first(); b < p.first() + p.count(); b++) {
                assertEquals(false, seen[b], "block " + b + " twice");
                seen[b] = true;
            }
        });
        for (boolean b : seen) {
            assertEquals(true, b);
        }
    }
}
