package mesh.host.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import mesh.model.VolumeManifest;
import org.junit.jupiter.api.Test;

/**
 * BlobsAheadTest: small files come back in the manifest's order and only they are fetched, never more than IN_FLIGHT
 * at once, a file taken out of order is refused, a failure is its file's, and close stops what is under way.
 */
class BlobsAheadTest {

    static VolumeManifest.Entry file(String path, long size) {
        return new VolumeManifest.Entry(path, "file", size, "0644", 0, 0, null, "a".repeat(64), Map.of());
    }

    static VolumeManifest.Entry other(String path, String type, String sha256) {
        return new VolumeManifest.Entry(path, type, 0, "0755", 0, 0, null, sha256, Map.of());
    }

    static void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 10 s: " + what);
            Thread.sleep(2);
        }
    }

    @Test
    void onlyTheSmallFilesAreFetchedAndTheyComeBackInTheManifestsOrder() {
        VolumeManifest.Entry nullHash = new VolumeManifest.Entry("nohash", "file", 3, "0644", 0, 0, null, null, Map.of());
        List<VolumeManifest.Entry> entries = List.of(other(".", "dir", null), file("a", 3), file("big", BlobsAhead.SMALL + 1),
                other("d", "dir", null), other("l", "link", "b".repeat(64)), other("p", "fifo", null), nullHash,
                file("d/b", 0), file("d/c", BlobsAhead.SMALL));
        List<String> fetched = Collections.synchronizedList(new ArrayList<>());
        try (BlobsAhead ahead = new BlobsAhead(entries, e -> {
            fetched.add(e.path());
            return e.path().getBytes(StandardCharsets.UTF_8);
        })) {
            List<String> taken = new ArrayList<>();
            for (VolumeManifest.Entry e : entries) {
                if (BlobsAhead.small(e)) {
                    taken.add(new String(ahead.take(e), StandardCharsets.UTF_8));
                }
            }
            assertEquals(List.of("a", "d/b", "d/c"), taken);
            assertEquals(List.of("a", "d/b", "d/c"), fetched.stream().sorted().toList(),
                    "no folder, link, fifo, file without a hash or file over SMALL is fetched ahead");
            assertThrows(IllegalStateException.class, () -> ahead.take(entries.get(1)));
        }
    }

    @Test
    void aFileTakenOutOfOrderIsRefusedNamingBoth() {
        List<VolumeManifest.Entry> entries = List.of(file("a", 1), file("b", 1));
        try (BlobsAhead ahead = new BlobsAhead(entries, e -> new byte[] {1})) {
            IllegalStateException x = assertThrows(IllegalStateException.class, () -> ahead.take(entries.get(1)));
            assertTrue(x.getMessage().contains("file b") && x.getMessage().contains("(a)"), x.getMessage());
        }
    }

    @Test
    void noMoreThanInFlightAreFetchedAtOnceAndEachTakeLetsOneMoreStart() throws Exception {
        List<VolumeManifest.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 3 * BlobsAhead.IN_FLIGHT; i++) {
            entries.add(file("f" + i, 1));
        }
        Map<String, CountDownLatch> release = new ConcurrentHashMap<>();
        entries.forEach(e -> release.put(e.path(), new CountDownLatch(1)));
        AtomicInteger now = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        try (BlobsAhead ahead = new BlobsAhead(entries, e -> {
            started.incrementAndGet();
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            try {
                assertTrue(release.get(e.path()).await(10, TimeUnit.SECONDS));
            } catch (InterruptedException x) {
                throw new IllegalStateException(x);
            }
            now.decrementAndGet();
            return new byte[] {(byte) Integer.parseInt(e.path().substring(1))};
        })) {
            await("the first window starts", () -> started.get() == BlobsAhead.IN_FLIGHT);
            for (int i = 0; i < entries.size(); i++) {
                int expected = Math.min(entries.size(), BlobsAhead.IN_FLIGHT + i);
                await("the fetches up to IN_FLIGHT past the taken ones start", () -> started.get() >= expected);
                Thread.sleep(10);
                assertEquals(expected, started.get(), "before take " + i + ": no more than IN_FLIGHT past the taken ones");
                release.get(entries.get(i).path()).countDown();
                assertArrayEquals(new byte[] {(byte) i}, ahead.take(entries.get(i)));
            }
        }
        assertTrue(most.get() <= BlobsAhead.IN_FLIGHT, "at most IN_FLIGHT at once, saw " + most.get());
    }

    @Test
    void aFetchThatFailsIsThrownWhenItsFileIsTakenWithItsOwnMessage() {
        BackupBroken broken = new BackupBroken("volume data, file b: its content cannot be read");
        List<VolumeManifest.Entry> entries = List.of(file("a", 1), file("b", 1));
        try (BlobsAhead ahead = new BlobsAhead(entries, e -> {
            if (e.path().equals("b")) {
                throw broken;
            }
            return new byte[] {1};
        })) {
            assertArrayEquals(new byte[] {1}, ahead.take(entries.get(0)));
            assertSame(broken, assertThrows(BackupBroken.class, () -> ahead.take(entries.get(1))));
        }
    }

    @Test
    void closeInterruptsTheFetchesUnderWay() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        BlobsAhead ahead = new BlobsAhead(List.of(file("a", 1)), e -> {
            started.incrementAndGet();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException x) {
                interrupted.countDown();
            }
            return new byte[0];
        });
        await("the fetch starts", () -> started.get() == 1);
        ahead.close();
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the fetch under way is interrupted by close");
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
