package mesh.host.backup;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * SideBySide runs a few jobs of one file's chunks at once, each on a virtual thread of its own: the first failure
 * stops the others (interrupted: their reads and sends stop) and is thrown once they have ended, so nothing of a
 * failed backup or restore still reads or writes after it returned.
 */
final class SideBySide {

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
            throw new BackupBroken(x.getCause().getMessage(), x.getCause());
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new BackupBroken("interrupted", x);
        } finally {
            pool.shutdownNow();   // after a failure: the others are interrupted and awaited
            try {
                pool.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
