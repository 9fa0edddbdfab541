package mesh.controller;

import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Periodic is one of the controller's own loops (backups, alerts, state backups): one look every {@code every}, on a
 * daemon thread of its own, started once. A look that throws is logged in the loop's words and the next look comes
 * as usual, so the loop never dies of one; an interrupt ends it. The thread is a platform thread: the looks read the
 * store, whose reads have no deadline, and natively a virtual thread's socket read can miss its wake-up
 * (oracle/graal#13787).
 */
final class Periodic {

    private final String name;
    private final Duration every;
    private final boolean waitFirst;
    private final Runnable look;
    private final Logger log;
    private Thread thread;

    /**
     * A loop called {@code name} (its thread's name; a failed look is logged under it, dashes as spaces) that runs
     * {@code look} every {@code every}; {@code waitFirst}: the first look comes one period after the start rather than
     * at once.
     */
    Periodic(String name, Duration every, boolean waitFirst, Runnable look, Logger log) {
        this.name = name;
        this.every = every;
        this.waitFirst = waitFirst;
        this.look = look;
        this.log = log;
    }

    /** Starts the loop; a second start does nothing. */
    synchronized void start() {
        if (thread == null) {
            thread = Thread.ofPlatform().name(name).daemon(true).start(this::run);
        }
    }

    /** The loop's thread, null before {@link #start}. */
    synchronized Thread thread() {
        return thread;
    }

    private void run() {
        try {
            if (waitFirst) {
                mesh.model.Poll.pauseInterruptibly(every);
            }
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    look.run();
                } catch (RuntimeException e) {
                    log.warnf("%s: %s", name.replace('-', ' '), e.getMessage());
                }
                mesh.model.Poll.pauseInterruptibly(every);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
