package mesh.host.take;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * RunningCopies keeps the copy under way of each volume on this node, so that one volume is never written by
 * two copies at once. A copy outlives its caller: a controller killed in the middle of a copy stream leaves
 * the target's copy running (its progress lines go nowhere, and a write to a dead connection is not always
 * refused), and the next controller asks for the same copy again. The new copy first cuts the old one and
 * waits for it to end, before its folder is emptied; otherwise two tar processes would extract into one
 * folder while the second empties it. No I/O here: a {@link Run} is cut through the hook its copy sets.
 */
public final class RunningCopies {

    /** How long a new copy waits for the one it cut to end (a cut copy ends within a buffer). */
    static final Duration CUT_WAIT = Duration.ofSeconds(30);

    private final Map<String, Run> running = new HashMap<>();

    /** Run is one copy under way: cut it, or learn that it ended. */
    public static final class Run {
        private final CountDownLatch ended = new CountDownLatch(1);
        private boolean cut;
        private Runnable hook;

        /** Sets how to stop this copy (close its stream, end its tar); run at once if it was cut already. */
        public void onCut(Runnable stop) {
            boolean now;
            synchronized (this) {
                hook = stop;
                now = cut;
            }
            if (now) {
                stop.run();
            }
        }

        /** Whether a newer copy of the same volume cut this one. */
        public synchronized boolean isCut() {
            return cut;
        }

        void cut() {
            Runnable stop;
            synchronized (this) {
                cut = true;
                stop = hook;
            }
            if (stop != null) {
                stop.run();
            }
        }

        boolean awaitEnd(Duration wait) {
            try {
                return ended.await(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private static String key(String module, String volume, String kind) {
        return kind + "/" + module + "/" + volume;
    }

    /**
     * Cuts the copy of the volume under way, if any, and waits for it to end; whether none is left running.
     * A new copy calls this before it empties the volume's folder.
     */
    public boolean cutRunning(String module, String volume, String kind) {
        Run old;
        synchronized (this) {
            old = running.remove(key(module, volume, kind));
        }
        if (old == null) {
            return true;
        }
        old.cut();
        return old.awaitEnd(CUT_WAIT);
    }

    /** Records a new copy of the volume as the one under way (cutting any other first); {@link #end} it when it ends. */
    public Run begin(String module, String volume, String kind) {
        cutRunning(module, volume, kind);
        Run run = new Run();
        Run other;
        synchronized (this) {
            other = running.put(key(module, volume, kind), run);
        }
        if (other != null) {
            other.cut();
        }
        return run;
    }

    /** The copy ended (done, failed or cut); a newer copy waiting for it goes on. */
    public void end(String module, String volume, String kind, Run run) {
        synchronized (this) {
            running.remove(key(module, volume, kind), run);
        }
        run.ended.countDown();
    }

    /** Whether a copy of the volume is under way. */
    public synchronized boolean running(String module, String volume, String kind) {
        return running.containsKey(key(module, volume, kind));
    }
}
