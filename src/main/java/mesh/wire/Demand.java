package mesh.wire;

import java.time.Duration;
import java.util.concurrent.Flow;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Demand is what a one-subscriber publisher owes its reader: how many items the reader asked for, whether it
 * cancelled, and whether the writer's side cut the stream. The streams that carry gigabytes or hours of lines
 * ({@link LinePublisher}, and a take's archive and ranges) are written only as fast as their reader asks: the HTTP
 * layer asks for the next item once the previous one was written (quarkus's {@code StreamingOutput} has no
 * back-pressure, quarkusio/quarkus#50317), so the writing loop waits here between items and never holds more than
 * one in memory.
 *
 * <p>The writing loop calls {@link #await} before each item and {@link #taken} after handing one over; it stops
 * when await says why: {@code ""} when the reader cancelled (no signal is owed to it), the cut's reason, or the
 * reader's silence for longer than the publisher allows.
 */
public final class Demand {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long owed;
    private boolean cancelled;
    private String cut;
    private boolean subscribed;

    /**
     * Gives {@code subscriber} the one subscription, whose cancel also runs {@code onCancel} (outside the lock);
     * false when the stream was already read or cut, and the subscriber is told so with an error naming
     * {@code what} ("an archive", "a log stream"): a stream is read once.
     */
    public boolean subscribe(Flow.Subscriber<?> subscriber, String what, Runnable onCancel) {
        boolean first;
        lock.lock();
        try {
            first = !subscribed;
            subscribed = true;
        } finally {
            lock.unlock();
        }
        if (!first) {
            subscriber.onSubscribe(new Flow.Subscription() {
                public void request(long n) {
                }

                public void cancel() {
                }
            });
            String why = cut();
            subscriber.onError(why != null ? new java.io.IOException(why)
                    : new IllegalStateException(what + " is read once"));
            return false;
        }
        subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                change(() -> owed = n <= 0 || owed + n < 0 ? Long.MAX_VALUE : owed + n);
            }

            @Override
            public void cancel() {
                change(() -> cancelled = true);
                onCancel.run();
            }
        });
        return true;
    }

    /**
     * Cuts the stream for {@code why} (the first reason stays); true when nobody had subscribed yet: a reader that
     * comes after the cut gets the error at once, and the caller's end-of-stream work is its own to run.
     */
    public boolean cut(String why) {
        lock.lock();
        try {
            if (cut == null) {
                cut = why;
            }
            boolean never = !subscribed;
            subscribed = true;
            changed.signalAll();
            return never;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the reader asked for an item; null then. Otherwise why the stream stops: "" when the reader
     * cancelled, the cut's reason, {@code silence}'s words after {@code noDemand} without a request, or
     * "interrupted" (the thread's interrupt is kept).
     */
    public String await(Duration noDemand, Supplier<String> silence) {
        long left = noDemand.toNanos();
        lock.lock();
        try {
            while (owed == 0 && !cancelled && cut == null) {
                if (left <= 0) {
                    return silence.get();
                }
                try {
                    left = changed.awaitNanos(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return "interrupted";
                }
            }
            return why();
        } finally {
            lock.unlock();
        }
    }

    /** Why the stream stopped, as {@link #await} says it ("" cancelled, the cut's reason), or null while it goes on. */
    public String stopped() {
        lock.lock();
        try {
            return why();
        } finally {
            lock.unlock();
        }
    }

    /** One item handed over: one less owed. */
    public void taken() {
        change(() -> {
            if (owed != Long.MAX_VALUE) {
                owed--;
            }
        });
    }

    /** How long {@code d} is in an operator's words: whole seconds when it is, milliseconds otherwise. */
    public static String words(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private String cut() {
        lock.lock();
        try {
            return cut;
        } finally {
            lock.unlock();
        }
    }

    private String why() {
        return cancelled ? "" : cut;
    }

    private void change(Runnable change) {
        lock.lock();
        try {
            change.run();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
