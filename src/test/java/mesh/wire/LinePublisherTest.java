package mesh.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LinePublisherTest {

    /** A subscriber that asks for items only when told to, as the HTTP layer does once a write completed. */
    static final class Reader implements Flow.Subscriber<byte[]> {
        final List<String> items = new CopyOnWriteArrayList<>();
        final CountDownLatch over = new CountDownLatch(1);
        final AtomicReference<Throwable> error = new AtomicReference<>();
        Flow.Subscription subscription;

        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
        }

        public void onNext(byte[] item) {
            items.add(new String(item, StandardCharsets.UTF_8));
        }

        public void onError(Throwable t) {
            error.set(t);
            over.countDown();
        }

        public void onComplete() {
            over.countDown();
        }
    }

    @Test
    void aLineIsTakenOnlyOnDemandSoAFullQueueHoldsItsProducer() throws Exception {
        LineQueue queue = new LineQueue(1);
        AtomicInteger handed = new AtomicInteger();
        Thread producer = Thread.ofVirtual().start(() -> {
            try {
                for (int i = 0; i < LineQueue.SIZE * 4; i++) {
                    if (!queue.put(LogLine.of("web", "stdout", null, "line " + i))) {
                        return;
                    }
                    handed.incrementAndGet();
                }
                queue.done();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Reader reader = new Reader();
        new LinePublisher("web", queue, Duration.ofSeconds(10), Duration.ofSeconds(30)).subscribe(reader);
        Thread.sleep(300);
        assertEquals(LineQueue.SIZE, handed.get(), "with no demand only the queue's lines were read from the source");
        reader.subscription.request(3);
        Thread.sleep(300);
        assertEquals(3, reader.items.size());
        assertTrue(reader.items.get(0).contains("\"line\":\"line 0\""), reader.items.get(0));
        reader.subscription.request(Long.MAX_VALUE);
        assertTrue(reader.over.await(5, TimeUnit.SECONDS));
        assertEquals(LineQueue.SIZE * 4, reader.items.size());
        producer.join();
    }

    @Test
    void aSilentSourceGetsKeepAlivesWhileThereIsDemand() throws Exception {
        LineQueue queue = new LineQueue(1);
        Reader reader = new Reader();
        new LinePublisher("web", queue, Duration.ofMillis(100), Duration.ofSeconds(30)).subscribe(reader);
        reader.subscription.request(Long.MAX_VALUE);
        Thread.sleep(450);
        assertTrue(reader.items.size() >= 2 && reader.items.stream().allMatch("\n"::equals), reader.items.toString());
        queue.done();
        assertTrue(reader.over.await(5, TimeUnit.SECONDS));
    }

    @Test
    void aCancelClosesTheQueueWhichStopsItsProducersAndRunsItsCloseActions() throws Exception {
        LineQueue queue = new LineQueue(1);
        CountDownLatch closed = new CountDownLatch(1);
        queue.onClose(closed::countDown);
        AtomicReference<Boolean> lastPut = new AtomicReference<>();
        Thread producer = Thread.ofVirtual().start(() -> {
            try {
                boolean ok = true;
                while (ok) {
                    ok = queue.put(LogLine.of("web", "stdout", null, "x"));
                }
                lastPut.set(ok);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Reader reader = new Reader();
        new LinePublisher("web", queue, Duration.ofSeconds(10), Duration.ofSeconds(30)).subscribe(reader);
        reader.subscription.request(1);
        Thread.sleep(200);
        reader.subscription.cancel();
        assertTrue(closed.await(2, TimeUnit.SECONDS), "the engine's stream or the agent's connection is closed");
        producer.join(2000);
        assertFalse(producer.isAlive());
        assertEquals(false, lastPut.get());
    }

    @Test
    void aReaderThatTakesNothingForLongIsCut() throws Exception {
        LineQueue queue = new LineQueue(1);
        Reader reader = new Reader();
        new LinePublisher("web", queue, Duration.ofSeconds(10), Duration.ofMillis(200)).subscribe(reader);
        assertTrue(reader.over.await(3, TimeUnit.SECONDS));
        assertTrue(reader.error.get().getMessage().contains("took nothing"), reader.error.get().getMessage());
        assertTrue(queue.closed());
    }

    @Test
    void aLineReadsBackAndAKeepAliveIsNoLine() {
        LogLine l = LogLine.of("web", "stderr", "2026-12-01T10:00:00Z", "boom");
        assertEquals(l, LogLine.read(new String(l.ndjson(), StandardCharsets.UTF_8).strip()));
        assertEquals(null, LogLine.read(""));
        assertEquals("component web was replaced", LogLine.read("{\"component\":\"web\",\"end\":\"component web was replaced\"}").end());
    }
}
