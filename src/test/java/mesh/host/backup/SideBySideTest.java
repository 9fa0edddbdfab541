package mesh.host.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** SideBySideTest: the one result, the first failure thrown after the others stopped, and an interrupt awaited too. */
class SideBySideTest {

    @Test
    void theOneResultThatIsNotNull() {
        assertEquals("abc", SideBySide.run("t-", List.of(() -> null, () -> "abc", () -> null)));
    }

    @Test
    void theFirstFailureIsThrownOnceTheOthersHaveStopped() {
        AtomicBoolean stopped = new AtomicBoolean();
        Callable<String> slow = () -> {
            try {
                Thread.sleep(60_000);
            } finally {
                stopped.set(true);
            }
            return null;
        };
        BackupBroken thrown = assertThrows(BackupBroken.class, () -> SideBySide.run("t-", List.of(slow, () -> {
            throw new BackupBroken("chunk 2 of 2: broken");
        })));
        assertEquals("chunk 2 of 2: broken", thrown.getMessage());
        assertTrue(stopped.get(), "the other job had ended when run returned");
    }

    @Test
    void aCallerInterruptedReturnsOnlyOnceItsJobsHaveEnded() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean ended = new AtomicBoolean();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean endedWhenReturned = new AtomicBoolean();
        AtomicBoolean interruptKept = new AtomicBoolean();
        Callable<String> writer = () -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();   // a last write that takes a moment after its interrupt
                }
            }
            ended.set(true);
            return null;
        };
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                SideBySide.run("t-", List.of(writer));
            } catch (Throwable t) {
                thrown.set(t);
            }
            endedWhenReturned.set(ended.get());
            interruptKept.set(Thread.currentThread().isInterrupted());
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        caller.interrupt();
        caller.join(TimeUnit.SECONDS.toMillis(30));
        assertTrue(thrown.get() instanceof BackupBroken, String.valueOf(thrown.get()));
        assertTrue(endedWhenReturned.get(), "the job had ended when run returned");
        assertTrue(interruptKept.get(), "the caller's interrupt is kept");
    }
}
