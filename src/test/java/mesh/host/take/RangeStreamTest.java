package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import mesh.plan.BlockDelta;
import mesh.wire.RangeRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RangeStreamTest: the source's range answer ({@link RangePublisher}) read from real files, its frames applied by the
 * target ({@link RangePass#apply}) to a real copy: the copy ends byte-identical, and only the blocks that differ crossed.
 */
class RangeStreamTest {

    static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    /** Runs one range answer for {@code source} against the copy {@code target}; the bytes of frames that crossed. */
    long sync(Path source, Path target) throws Exception {
        return sync(source, target, null);
    }

    /** As above, the source's checkpoints kept in {@code points} (null: none). */
    long sync(Path source, Path target, Checkpoints points) throws Exception {
        int block = BlockDelta.blockFor(Math.max(Files.size(source), Files.size(target)));
        long size = Files.size(target);
        RangeRequest request = new RangeRequest("f", block, size, BlockHashes.of(target, block, size));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        CompletableFuture<Void> done = new CompletableFuture<>();
        HashCache fenced = new HashCache();
        new RangePublisher(source, request, Duration.ofSeconds(5), fenced, points).subscribe(new Flow.Subscriber<>() {
            Flow.Subscription s;

            public void onSubscribe(Flow.Subscription s) {
                this.s = s;
                s.request(1);
            }

            public void onNext(byte[] frame) {
                wire.writeBytes(frame);
                s.request(1);   // one at a time, as the HTTP layer asks
            }

            public void onError(Throwable e) {
                done.completeExceptionally(e);
            }

            public void onComplete() {
                done.complete(null);
            }
        });
        done.get();
        long[] after;
        try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
            after = new RangePass(null, null, null, null, dir, null, line -> { }, new BlockCache(new HashCache()))
                    .apply(new DataInputStream(new ByteArrayInputStream(wire.toByteArray())), ch, block,
                            request.hashes(), () -> { });
        }
        assertArrayEquals(BlockHashes.of(target, block, Files.size(target)), after,
                "the hashes the target keeps for the next pass are those of its copy as written");
        assertEquals(ShaStatesTest.sha256(source), fenced.get(HashCache.Key.of(source)),
                "read under the fence, the answer leaves the source's whole sha256 for the verify");
        return wire.size();
    }

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void anAppendedFileSendsItsLastBlockAndTheTail() throws Exception {
        byte[] old = random(5 * MIB + 1000, 1);
        byte[] now = java.util.Arrays.copyOf(old, 7 * MIB);
        System.arraycopy(random(2 * MIB - 1000, 2), 0, now, 5 * MIB + 1000, 2 * MIB - 1000);
        Path source = Files.write(dir.resolve("source"), now);
        Path target = Files.write(dir.resolve("target"), old);
        long crossed = sync(source, target);
        assertArrayEquals(now, Files.readAllBytes(target));
        assertEquals(2 * MIB + 2 * 12 + 16, crossed, "blocks 5 and 6 and the end frame");
    }

    @Test
    void aBlockChangedInPlaceIsTheOnlyOneSent() throws Exception {
        byte[] old = random(8 * MIB, 3);
        byte[] now = old.clone();
        now[3 * MIB + 17] ^= 1;
        Path source = Files.write(dir.resolve("source"), now);
        Path target = Files.write(dir.resolve("target"), old);
        assertEquals(MIB + 12 + 16, sync(source, target));
        assertArrayEquals(now, Files.readAllBytes(target));
    }

    @Test
    void aTruncatedFileCutsTheCopyAndSendsOnlyTheBrokenBlock() throws Exception {
        byte[] old = random(6 * MIB, 4);
        byte[] now = java.util.Arrays.copyOf(old, 3 * MIB + 5);
        Path source = Files.write(dir.resolve("source"), now);
        Path target = Files.write(dir.resolve("target"), old);
        assertEquals(5 + 12 + 16, sync(source, target));
        assertArrayEquals(now, Files.readAllBytes(target));
    }

    @Test
    void keptHashesServeOnlyWhileTheCopyIsUnchanged() throws Exception {
        Path copy = Files.write(dir.resolve("copy"), random(2 * MIB, 6));
        long[] hashes = BlockHashes.of(copy, MIB, 2 * MIB);
        BlockCache cache = new BlockCache(new HashCache());
        cache.put(copy, MIB, hashes);
        assertArrayEquals(hashes, cache.get(copy, MIB));
        assertEquals(null, cache.get(copy, 2 * MIB), "another block size");
        Files.write(copy, new byte[] {1}, StandardOpenOption.APPEND);
        assertEquals(null, cache.get(copy, MIB), "written since: read again");
    }

    @Test
    void theSameFileSendsOnlyTheEnd() throws Exception {
        byte[] same = random(3 * MIB, 5);
        Path source = Files.write(dir.resolve("source"), same);
        Path target = Files.write(dir.resolve("target"), same);
        assertEquals(16, sync(source, target));
        assertArrayEquals(same, Files.readAllBytes(target));
    }

    @Test
    void aLargeFileIsHashedInPiecesSideBySideAndOnlyWhatDiffersCrosses() throws Exception {
        byte[] old = random(40 * MIB, 7);
        Path source = Files.write(dir.resolve("source"), old);
        Path target = Files.write(dir.resolve("target"), old);
        Checkpoints points = new Checkpoints();
        points.hash(source);   // the warm manifest: 40 intervals of 1 MiB fingerprinted
        byte[] now = java.util.Arrays.copyOf(old, 43 * MIB);
        System.arraycopy(random(3 * MIB, 8), 0, now, 40 * MIB, 3 * MIB);
        now[17 * MIB + 5] ^= 1;
        now[33 * MIB] ^= 1;
        Files.write(source, now);
        assertEquals(5L * (MIB + 12) + 16, sync(source, target, points), "blocks 17 and 33, the tail 40-42, the end");
        assertArrayEquals(now, Files.readAllBytes(target));
    }

    @Test
    void sha256StartsAtTheLastCheckpointOfAnAppendedFileAndAtTheFirstChangeBeforeIt() throws Exception {
        byte[] old = random(16 * MIB, 9);
        Path file = Files.write(dir.resolve("file"), old);
        Checkpoints points = new Checkpoints();
        points.hash(file);   // the warm manifest: 16 intervals of 1 MiB
        byte[] now = java.util.Arrays.copyOf(old, 19 * MIB);
        System.arraycopy(random(3 * MIB, 10), 0, now, 16 * MIB, 3 * MIB);
        Files.write(file, now);
        assertEquals(16L * MIB, scanned(file, points), "appended: SHA-256 over the tail only, from the last checkpoint");
        now[2 * MIB + 9] ^= 1;
        Files.write(file, now);
        assertEquals(2L * MIB, scanned(file, points), "a change in place before the tail: the guess is not kept");
        now[15 * MIB] ^= 1;
        now[2 * MIB + 9] ^= 1;
        Files.write(file, now);
        assertEquals(15L * MIB, scanned(file, points), "the last interval changed: from its checkpoint");
    }

    /** Scans {@code file} under the fence against its kept {@code points}; asserts its whole sha256; where SHA-256 began. */
    static long scanned(Path file, Checkpoints points) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             RangeScanner scan = new RangeScanner(ch, ch.size(), MIB, 0, points.get(file), true).start()) {
            assertEquals(ShaStatesTest.sha256(file), scan.sha256Now(), "the whole file's sha256");
            return scan.hashedFrom();
        }
    }
}
