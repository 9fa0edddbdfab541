package mesh.host.backup;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * SideBySide runs a few jobs of one file's chunks at once, each on a virtual thread of its own: the first failure
 * stops the others (interrupted: their reads and sends stop) and is thrown once they have ended, so nothing of a
 * failed backup or restore still reads or writes after it returned; so does an interrupt of the caller.
 */
final class SideBySide {

    private static final Logger LOG = Logger.getLogger("mesh.host");

    private SideBySide() {
    }

    /** Runs {@code work}; the one result that is not null (a chunked upload's whole-file hash), or null. */
    static String run(String name, List<Callable<String>> work) {
        ExecutorService pool = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name, 0).factory());
        try {
            CompletionService<String> done = new ExecutorCompletionService<>(pool);
            work.forEach(done::submit);
            String result = null;
            for (int i = 0; i < work.size(); i++) {
                String r = done.take().get();
                result = r == null ? result : r;
            }
            return result;
        } catch (ExecutionException x) {
            if (x.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (x.getCause() instanceof Error r) {
                throw r;
            }
            throw new BackupBroken(x.getCause().getMessage() == null ? x.getCause().toString() : x.getCause().getMessage(),
                    x.getCause());
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new BackupBroken("interrupted", x);
        } finally {
            pool.shutdownNow();   // after a failure or an interrupt: the others are interrupted, then awaited
            awaitUninterruptibly(pool);
        }
    }

    /**
     * Waits up to {@link #STOP} for the jobs to end, also when this thread was interrupted (its interrupt is kept for
     * its caller): a caller that returned while a job still wrote into its file would leave the write behind it.
     * Jobs still running after it are logged.
     */
    private static void awaitUninterruptibly(ExecutorService pool) {
        boolean interrupted = Thread.interrupted();
        long deadline = System.nanoTime() + STOP.toNanos();
        try {
            while (true) {
                try {
                    if (!pool.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                        // said, not thrown: this runs in a finally, and the failure that stopped them is the one to tell
                        LOG.warnf("the jobs of one file did not stop within %d s of their stop", STOP.toSeconds());
                    }
                    return;
                } catch (InterruptedException x) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How long the jobs of a file that failed or was interrupted may take to stop: each read and write stops at its interrupt. */
    private static final java.time.Duration STOP = java.time.Duration.ofSeconds(30);
}
