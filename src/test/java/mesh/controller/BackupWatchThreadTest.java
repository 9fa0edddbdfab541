package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * BackupWatchThreadTest: the backup watch's loop runs on a platform thread (a daemon) of its own. Every pass reads the
 * store over its JDBC socket, and in the native executable a virtual thread's blocking socket read can miss its wake-up
 * for ever (oracle/graal#13787): the loop would then stop fencing lost copies, beginning scheduled backups and carrying
 * on backups whose runner let go, all at once. (Its passes themselves are shown on the real parts by BackupIT.)
 */
class BackupWatchThreadTest {

    @Test
    void theLoopIsAPlatformDaemonThreadThatEndsWhenInterrupted() throws InterruptedException {
        BackupWatch watch = new BackupWatch();   // no store: each pass fails and is caught, the loop goes on
        watch.start();
        Thread loop = watch.loop();
        try {
            assertFalse(loop.isVirtual(), loop.toString());
            assertTrue(loop.isDaemon(), "the watch never keeps the controller from ending: " + loop);
            assertEquals("backup-watch", loop.getName());
            watch.start();
            assertSame(loop, watch.loop(), "started once");
        } finally {
            loop.interrupt();
        }
        loop.join(5_000);
        assertFalse(loop.isAlive(), "an interrupted watch ends: " + loop);
    }
}
