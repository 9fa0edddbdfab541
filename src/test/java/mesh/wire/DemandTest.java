package mesh.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DemandTest {

    /** A reader that keeps its subscription and what it was told. */
    static final class Reader implements Flow.Subscriber<byte[]> {
        Flow.Subscription subscription;
        final List<Throwable> errors = new ArrayList<>();

        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
        }

        public void onNext(byte[] item) {
        }

        public void onError(Throwable t) {
            errors.add(t);
        }

        public void onComplete() {
        }
    }

    private static final Duration SHORT = Duration.ofMillis(50);

    @Test
    void anItemIsOwedOnlyOnceAskedForAndEachHandedOverCountsDown() {
        Demand demand = new Demand();
        Reader reader = new Reader();
        assertTrue(demand.subscribe(reader, "a stream", () -> { }));
        assertEquals("silent", demand.await(SHORT, () -> "silent"), "nothing asked for: the reader's silence");
        reader.subscription.request(2);
        assertNull(demand.await(SHORT, () -> "silent"));
        demand.taken();
        assertNull(demand.await(SHORT, () -> "silent"));
        demand.taken();
        assertEquals("silent", demand.await(SHORT, () -> "silent"), "both handed over: none owed");
    }

    @Test
    void anUnboundedRequestNeverRunsOut() {
        Demand demand = new Demand();
        Reader reader = new Reader();
        demand.subscribe(reader, "a stream", () -> { });
        reader.subscription.request(Long.MAX_VALUE);
        reader.subscription.request(5);   // would overflow: stays unbounded
        for (int i = 0; i < 1000; i++) {
            demand.taken();
        }
        assertNull(demand.await(SHORT, () -> "silent"));
    }

    @Test
    void aCancelStopsTheWriterOwingNothingAndRunsTheCancelAction() {
        Demand demand = new Demand();
        Reader reader = new Reader();
        AtomicInteger cancels = new AtomicInteger();
        demand.subscribe(reader, "a stream", cancels::incrementAndGet);
        reader.subscription.request(3);
        reader.subscription.cancel();
        assertEquals("", demand.await(SHORT, () -> "silent"));
        assertEquals("", demand.stopped());
        assertEquals(1, cancels.get());
    }

    @Test
    void aCutStopsTheWriterWithItsFirstReason() {
        Demand demand = new Demand();
        Reader reader = new Reader();
        demand.subscribe(reader, "a stream", () -> { });
        reader.subscription.request(3);
        assertFalse(demand.cut("the fence was lifted"), "a reader had subscribed");
        demand.cut("a second reason");
        assertEquals("the fence was lifted", demand.await(SHORT, () -> "silent"));
        assertEquals("the fence was lifted", demand.stopped());
    }

    @Test
    void aSecondReaderIsRefusedAndAReaderAfterACutIsToldTheCut() {
        Demand demand = new Demand();
        demand.subscribe(new Reader(), "an archive", () -> { });
        Reader second = new Reader();
        assertFalse(demand.subscribe(second, "an archive", () -> { }));
        assertEquals("an archive is read once", second.errors.get(0).getMessage());

        Demand cut = new Demand();
        assertTrue(cut.cut("the take ended"), "nobody had subscribed");
        Reader late = new Reader();
        assertFalse(cut.subscribe(late, "an archive", () -> { }));
        assertTrue(late.errors.get(0) instanceof IOException);
        assertEquals("the take ended", late.errors.get(0).getMessage());
    }

    @Test
    void anInterruptedWriterStopsAndKeepsItsInterrupt() {
        Demand demand = new Demand();
        demand.subscribe(new Reader(), "a stream", () -> { });
        Thread.currentThread().interrupt();
        assertEquals("interrupted", demand.await(Duration.ofSeconds(5), () -> "silent"));
        assertTrue(Thread.interrupted());
    }

    @Test
    void aDurationInAnOperatorsWords() {
        assertEquals("60 s", Demand.words(Duration.ofSeconds(60)));
        assertEquals("250 ms", Demand.words(Duration.ofMillis(250)));
    }
}
