package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ArchivePublisherTest: tar is read only as its reader asks, a chunk at a time; a reader that stops asking,
 * a cut and a cancel each end tar, and the first two error the stream so the reader sees a broken archive.
 */
class ArchivePublisherTest {

    @TempDir
    Path dir;

    @BeforeEach
    void eightMegabytes() throws Exception {
        byte[] noise = new byte[8 * 1024 * 1024];
        new Random(7).nextBytes(noise);
        Files.write(dir.resolve("noise.bin"), noise);
    }

    @Test
    void aReaderThatAsksGetsTheWholeArchiveInChunksOfAtMost256KiB() throws Exception {
        AtomicInteger ended = new AtomicInteger();
        Drain d = new Drain();
        new ArchivePublisher(dir, Duration.ofSeconds(10), ended::incrementAndGet).subscribe(d);
        byte[] all = d.end.join();
        assertTrue(all.length > 8 * 1024 * 1024, "the archive holds the file: " + all.length);
        assertTrue(d.chunks.get() >= all.length / ArchivePublisher.CHUNK, "chunks of at most 256 KiB: " + d.chunks);
        waitFor(() -> ended.get() == 1);
    }

    @Test
    void aReaderThatStopsAskingIsGivenUpOnAndTarEnds() throws Exception {
        AtomicInteger ended = new AtomicInteger();
        ArchivePublisher archive = new ArchivePublisher(dir, Duration.ofMillis(500), ended::incrementAndGet);
        Drain d = new Drain(2);
        archive.subscribe(d);
        CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class,
                () -> d.end.orTimeout(10, TimeUnit.SECONDS).join());
        assertTrue(e.getCause().getMessage().contains("asked for no data for 500 ms"), e.getCause().getMessage());
        assertEquals(2, d.chunks.get(), "nothing is sent that was not asked for");
        assertTrue(tarEnds(archive));
        assertFalse(archive.tar() != null && archive.tar().isAlive());
        waitFor(() -> ended.get() == 1);
    }

    @Test
    void aCutEndsTarAndBreaksTheStreamWithItsReason() throws Exception {
        ArchivePublisher archive = new ArchivePublisher(dir, Duration.ofSeconds(30), () -> { });
        Drain d = new Drain(1);
        archive.subscribe(d);
        waitFor(() -> d.chunks.get() == 1);
        archive.cut("the fence of module web was lifted");
        CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, d.end::join);
        assertEquals("the fence of module web was lifted", e.getCause().getMessage());
        assertTrue(tarEnds(archive));
    }

    @Test
    void aCancelEndsTarWithoutAnotherSignal() throws Exception {
        AtomicInteger ended = new AtomicInteger();
        ArchivePublisher archive = new ArchivePublisher(dir, Duration.ofSeconds(30), ended::incrementAndGet);
        Drain d = new Drain(1);
        archive.subscribe(d);
        waitFor(() -> d.chunks.get() == 1);
        d.cancel();
        assertTrue(tarEnds(archive));
        waitFor(() -> ended.get() == 1);
        assertFalse(d.end.isDone(), "a cancelled reader is owed nothing");
    }

    @Test
    void aSecondReaderIsRefused() {
        ArchivePublisher archive = new ArchivePublisher(dir, Duration.ofSeconds(10), () -> { });
        Drain first = new Drain();
        archive.subscribe(first);
        Drain second = new Drain();
        archive.subscribe(second);
        assertTrue(second.end.isCompletedExceptionally());
        first.end.join();
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < until, "waited 10 s in vain");
            Thread.sleep(20);
        }
    }

    /** Whether the archive's tar ended within 5 s (or never started). */
    static boolean tarEnds(ArchivePublisher archive) throws InterruptedException {
        Process p = archive.tar();
        return p == null || p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
    }
}
