package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CheckpointsTest: the source's sha256 after the fence, resumed from the checkpoints of its warm manifest, is the whole
 * file's as it now is, whatever changed, and SHA-256 reads from the first interval whose fingerprint differs only.
 */
class CheckpointsTest {

    static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    /**
     * Hashes {@code file} with a {@link RangeScanner} over {@code kept} in blocks of {@code chunk} bytes, as the range
     * answer reads it under the fence (no target copy: every piece's fingerprint only).
     */
    record Resumed(String hash, long hashedFrom) {
    }

    static Resumed resumed(Path file, Checkpoints.Kept kept, int chunk) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             RangeScanner scan = new RangeScanner(ch, ch.size(), chunk, 0, kept, true).start()) {
            for (int p = 0; p < scan.pieces().size(); p++) {
                scan.await(p, Long.MAX_VALUE);
            }
            return new Resumed(scan.sha256Now(), scan.hashedFrom());
        }
    }

    Checkpoints.Kept warm(Path file) throws Exception {
        Checkpoints points = new Checkpoints();
        assertEquals(ShaStatesTest.sha256(file), points.hash(file), "the warm manifest's hash is the file's sha256");
        return points.get(file);
    }

    @Test
    void anAppendedFileIsHashedFromItsLastWholeInterval() throws Exception {
        Path f = Files.write(dir.resolve("f"), ShaStatesTest.random(5 * MIB + 1000, 1));
        Checkpoints.Kept kept = warm(f);
        assertEquals(5, kept.intervals());
        Files.write(f, ShaStatesTest.random(3 * MIB, 2), StandardOpenOption.APPEND);
        Resumed r = resumed(f, kept, MIB);
        assertEquals(ShaStatesTest.sha256(f), r.hash);
        assertEquals(5L * MIB, r.hashedFrom(), "the first five intervals are fingerprinted, not hashed");
    }

    @Test
    void aByteChangedInPlaceResumesFromItsIntervalWhateverTheChunks() throws Exception {
        byte[] bytes = ShaStatesTest.random(8 * MIB, 3);
        Path f = Files.write(dir.resolve("f"), bytes);
        Checkpoints.Kept kept = warm(f);
        bytes[3 * MIB + 17] ^= 1;
        Files.write(f, bytes);
        for (int chunk : new int[] {MIB, MIB / 4, MIB / 2}) {
            Resumed r = resumed(f, kept, chunk);
            assertEquals(ShaStatesTest.sha256(f), r.hash, "chunks of " + chunk);
            assertEquals(3L * MIB, r.hashedFrom(), "chunks of " + chunk);
        }
    }

    @Test
    void aFileCutShortOrLeftAloneIsStillHashedRight() throws Exception {
        Path f = Files.write(dir.resolve("f"), ShaStatesTest.random(6 * MIB, 4));
        Checkpoints.Kept kept = warm(f);
        Resumed same = resumed(f, kept, MIB);
        assertEquals(ShaStatesTest.sha256(f), same.hash);
        assertEquals(6L * MIB, same.hashedFrom(), "nothing changed: SHA-256 reads nothing");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(3L * MIB + 5);
        }
        Resumed cut = resumed(f, kept, MIB);
        assertEquals(ShaStatesTest.sha256(f), cut.hash);
        assertEquals(3L * MIB, cut.hashedFrom());
    }

    @Test
    void withoutCheckpointsEveryByteIsHashed() throws Exception {
        Path f = Files.write(dir.resolve("f"), ShaStatesTest.random(2 * MIB + 7, 5));
        Resumed r = resumed(f, null, MIB);
        assertEquals(ShaStatesTest.sha256(f), r.hash);
        assertEquals(0, r.hashedFrom());
    }

    @Test
    void theKeptStatesStayBounded() throws Exception {
        Checkpoints points = new Checkpoints();
        Path f = Files.write(dir.resolve("f"), ShaStatesTest.random(3 * MIB, 6));
        points.hash(f);
        Checkpoints.Kept four = points.get(f);
        assertEquals(4, four.states().size());
        for (int i = 0; i < Checkpoints.MAX_STATES / 4 - 1; i++) {
            points.put(dir.resolve("g" + i), four);
        }
        assertEquals(four, points.get(dir.resolve("g0")), "8192 states: all kept");
        points.put(dir.resolve("one-more"), four);
        assertEquals(null, points.get(f), "past 8192, the least recently used file went first");
    }
}
