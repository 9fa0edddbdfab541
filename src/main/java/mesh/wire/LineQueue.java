package mesh.wire;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * LineQueue is the bounded hand-over between the readers of log streams (an engine's frames, a log file, an
 * agent's stream) and the one {@link LinePublisher} that writes them out: at most {@link #SIZE} lines wait,
 * and a reader that finds it full waits too, so it stops reading its source (the engine's socket, the file,
 * the agent's connection) until the writer took a line: memory stays bounded, and a slow reader at the end
 * slows every party before it. Each of {@code producers} says {@link #done} once; when all did and the lines
 * are taken, {@link #next} answers {@link #DONE}. {@link #close} (the reader at the end went away) wakes
 * every waiting producer with false and runs the close actions (close the engine's stream, the agent's
 * connection), once.
 */
public final class LineQueue {

    /** How many lines may wait: a few hundred kB at most. */
    public static final int SIZE = 256;

    /** What {@link #next} answers once every producer is done and every line taken. */
    public static final LogLine DONE = LogLine.ended(null, "done");

    private static final Duration TRY = Duration.ofMillis(500);

    private final BlockingQueue<LogLine> lines = new ArrayBlockingQueue<>(SIZE);
    private final List<Runnable> onClose = new ArrayList<>();
    private int producers;
    private volatile boolean closed;

    public LineQueue(int producers) {
        this.producers = producers;
    }

    /** Hands a line over, waiting while the queue is full; false when the queue was closed (stop reading). */
    public boolean put(LogLine line) throws InterruptedException {
        while (!closed) {
            if (lines.offer(line, TRY.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
        }
        return false;
    }

    /** One producer has nothing more. */
    public synchronized void done() {
        producers--;
        notifyAll();
    }

    /** The next line, waiting up to {@code wait}: null when none came, {@link #DONE} when there will be none. */
    public LogLine next(Duration wait) throws InterruptedException {
        long end = System.nanoTime() + wait.toNanos();
        while (true) {
            LogLine l = lines.poll();
            if (l != null) {
                return l;
            }
            synchronized (this) {
                if (producers <= 0 && lines.isEmpty()) {
                    return DONE;
                }
            }
            long left = end - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            l = lines.poll(Math.min(left, TRY.toNanos()), TimeUnit.NANOSECONDS);
            if (l != null) {
                return l;
            }
        }
    }

    /** Runs {@code action} when the queue is closed (at once when it already is). */
    public void onClose(Runnable action) {
        boolean now;
        synchronized (this) {
            now = closed;
            if (!now) {
                onClose.add(action);
            }
        }
        if (now) {
            action.run();
        }
    }

    public boolean closed() {
        return closed;
    }

    /** Closes the queue: producers stop, the close actions run, waiting lines are dropped. */
    public void close() {
        List<Runnable> actions;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            actions = List.copyOf(onClose);
            onClose.clear();
        }
        lines.clear();
        for (Runnable a : actions) {
            try {
                a.run();
            } catch (RuntimeException e) {
                // closing what is already broken: nothing more to do
            }
        }
    }
}
