package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/** PeriodicTest: a look that throws does not end the loop, the first look may wait one period, an interrupt ends it. */
class PeriodicTest {

    private static final Logger LOG = Logger.getLogger(PeriodicTest.class);

    @Test
    void aLookThatThrowsIsFollowedByTheNextOne() throws InterruptedException {
        AtomicInteger looks = new AtomicInteger();
        CountDownLatch three = new CountDownLatch(3);
        Periodic loop = new Periodic("test-loop", Duration.ofMillis(10), false, () -> {
            looks.incrementAndGet();
            three.countDown();
            throw new IllegalStateException("the store is away");
        }, LOG);
        loop.start();
        Thread thread = loop.thread();
        try {
            assertTrue(three.await(10, TimeUnit.SECONDS), "looks after failed looks: " + looks.get());
            assertFalse(thread.isVirtual());
            assertTrue(thread.isDaemon());
            assertEquals("test-loop", thread.getName());
        } finally {
            thread.interrupt();
        }
        thread.join(5_000);
        assertFalse(thread.isAlive(), "an interrupted loop ends");
    }

    @Test
    void aLoopThatWaitsFirstLooksOnlyAfterOnePeriod() throws InterruptedException {
        AtomicInteger looks = new AtomicInteger();
        Periodic loop = new Periodic("test-wait", Duration.ofHours(1), true, looks::incrementAndGet, LOG);
        loop.start();
        Thread thread = loop.thread();
        Thread.sleep(200);
        assertEquals(0, looks.get(), "no look before its first period");
        thread.interrupt();
        thread.join(5_000);
        assertFalse(thread.isAlive());
        assertEquals(0, looks.get(), "an interrupt during the first wait ends the loop without a look");
    }
}
