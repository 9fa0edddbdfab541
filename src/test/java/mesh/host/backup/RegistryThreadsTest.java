package mesh.host.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** RegistryThreadsTest: the threads a backup talks to the registry on are platform daemon threads (oracle/graal#13787). */
class RegistryThreadsTest {

    @Test
    void aPoolsThreadsArePlatformDaemonThreadsNamedInOrder() {
        List<Thread> ran = new CopyOnWriteArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(2, RegistryThreads.named("backup-upload-"))) {
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> ran.add(Thread.currentThread()));
            }
        }
        assertEquals(2, ran.size());
        for (Thread t : ran) {
            assertFalse(t.isVirtual(), t.toString());
            assertTrue(t.isDaemon(), t.toString());
            assertTrue(t.getName().matches("backup-upload-[01]"), t.getName());
        }
    }

    @Test
    void aStartedThreadRunsItsWorkOnAPlatformThread() throws InterruptedException {
        List<Thread> ran = new CopyOnWriteArrayList<>();
        Thread t = RegistryThreads.start("restore-read", () -> ran.add(Thread.currentThread()));
        t.join(10_000);
        assertEquals(List.of(t), ran);
        assertFalse(t.isVirtual());
        assertEquals("restore-read", t.getName());
    }
}
