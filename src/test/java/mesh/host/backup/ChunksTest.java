package mesh.host.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ChunksTest: where a large file is cut, and which files are cut at all. */
class ChunksTest {

    @Test
    void aFileOfAtMostOneChunkIsOneBlobAsBefore() {
        assertFalse(Chunks.chunked(BlobsAhead.SMALL + 1));
        assertFalse(Chunks.chunked(Chunks.SIZE));
        assertTrue(Chunks.chunked(Chunks.SIZE + 1));
        assertEquals(List.of(new Chunks.Range(0, Chunks.SIZE)), Chunks.cut(Chunks.SIZE));
        assertEquals(List.of(), Chunks.cut(0));
    }

    @Test
    void theChunksAreFixedSizeOneAfterTheOtherTheLastTheRest() {
        assertEquals(List.of(new Chunks.Range(0, Chunks.SIZE), new Chunks.Range(Chunks.SIZE, 1)), Chunks.cut(Chunks.SIZE + 1));
        long twoGb = 2_147_483_648L + 12_345;
        List<Chunks.Range> ranges = Chunks.cut(twoGb);
        assertEquals(33, ranges.size());
        long at = 0;
        for (Chunks.Range r : ranges) {
            assertEquals(at, r.offset());
            assertTrue(r.size() > 0 && r.size() <= Chunks.SIZE, r.toString());
            at += r.size();
        }
        assertEquals(twoGb, at);
        assertEquals(12_345, ranges.getLast().size());
        assertEquals(32, Chunks.cut(32 * Chunks.SIZE).size(), "a whole number of chunks has no empty last one");
    }
}
