package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** ApplyPoolTest: the apply pool runs its parallelism at once and lets its threads end when idle. */
class ApplyPoolTest {

    @Test
    void runsParallelismTasksAtOnceAndLetsIdleThreadsEnd() throws Exception {
        ExecutorService pool = HostLoop.applyPool(3);
        try {
            CountDownLatch allIn = new CountDownLatch(3);
            for (int i = 0; i < 3; i++) {
                pool.submit(() -> {
                    allIn.countDown();
                    allIn.await(); // returns only if all three run at the same time
                    return null;
                });
            }
            assertTrue(allIn.await(10, TimeUnit.SECONDS), "three tasks did not run at once");
            ThreadPoolExecutor tpe = (ThreadPoolExecutor) pool;
            assertTrue(tpe.allowsCoreThreadTimeOut(), "idle apply threads are kept for good");
            assertEquals(3, tpe.getMaximumPoolSize());
        } finally {
            pool.shutdownNow();
        }
    }
}
