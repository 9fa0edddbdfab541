package mesh.host.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mesh.model.VolumeManifest;
import org.junit.jupiter.api.Test;

/** BlobsAheadTest: small files come back in the manifest's order, at most IN_FLIGHT are fetched at once, a failure is the file's. */
class BlobsAheadTest {

    static VolumeManifest.Entry file(String path, long size) {
        return new VolumeManifest.Entry(path, "file", size, "0644", 0, 0, null, "a".repeat(64), Map.of());
    }

    static VolumeManifest.Entry dir(String path) {
        return new VolumeManifest.Entry(path, "dir", 0, "0755", 0, 0, null, null, Map.of());
    }

    @Test
    void theSmallFilesComeBackInTheManifestsOrderAndTheLargeOnesAreLeftToBeStreamed() {
        List<VolumeManifest.Entry> entries = List.of(dir("."), file("a", 3), file("big", BlobsAhead.SMALL + 1), dir("d"),
                file("d/b", 0), file("d/c", BlobsAhead.SMALL));
        List<String> fetched = java.util.Collections.synchronizedList(new ArrayList<>());
        try (BlobsAhead ahead = new BlobsAhead(entries, e -> {
            fetched.add(e.path());
            return e.path().getBytes(StandardCharsets.UTF_8);
        })) {
            List<String> taken = new ArrayList<>();
            for (VolumeManifest.Entry e : entries) {
                if (BlobsAhead.small(e)) {
                    taken.add(new String(ahead.take(), StandardCharsets.UTF_8));
                }
            }
            assertEquals(List.of("a", "d/b", "d/c"), taken);
            assertFalse(fetched.contains("big"), "a file larger than SMALL is streamed, not fetched ahead: " + fetched);
            assertThrows(IllegalStateException.class, ahead::take);
        }
    }

    @Test
    void noMoreThanInFlightAreFetchedAtOnceAndTheWindowMovesAsTheyAreTaken() throws Exception {
        List<VolumeManifest.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 3 * BlobsAhead.IN_FLIGHT; i++) {
            entries.add(file("f" + i, 1));
        }
        AtomicInteger now = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        try (BlobsAhead ahead = new BlobsAhead(entries, e -> {
            started.incrementAndGet();
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            try {
                assertTrue(release.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException x) {
                throw new IllegalStateException(x);
            }
            now.decrementAndGet();
            return new byte[] {(byte) Integer.parseInt(e.path().substring(1))};
        })) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (started.get() < BlobsAhead.IN_FLIGHT && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(50);
            assertEquals(BlobsAhead.IN_FLIGHT, started.get(), "the first window is fetched at once, and no more");
            release.countDown();
            for (int i = 0; i < entries.size(); i++) {
                assertArrayEquals(new byte[] {(byte) i}, ahead.take());
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
            assertArrayEquals(new byte[] {1}, ahead.take());
            assertSame(broken, assertThrows(BackupBroken.class, ahead::take));
        }
    }
}
