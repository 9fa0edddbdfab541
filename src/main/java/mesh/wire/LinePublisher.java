package mesh.wire;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Flow;

/**
 * LinePublisher is a log stream as NDJSON chunks that are made only as fast as the connection takes them
 * (the idea of {@code mesh.host.take.ArchivePublisher}: quarkus's {@code StreamingOutput} has no back-pressure,
 * quarkusio/quarkus#50317). resteasy-reactive asks for the next item only once the previous one was written;
 * until then no line is taken from its {@link LineQueue}, which fills, and its readers stop reading.
 *
 * <p>While demand waits and no line comes for {@code keepAlive}, a blank line goes out: the reader at the
 * other end learns the writer lives (and times out when it hears nothing for a few of them), and a reader that
 * went away is noticed at the latest at that write (the connection's close cancels this publisher, which closes
 * the queue and so its readers). No demand for {@code noDemand} (the reader stopped reading): the queue is closed
 * and the stream errored. One subscriber only.
 */
public final class LinePublisher implements Flow.Publisher<byte[]> {

    /** How long a stream may be silent before a keep-alive (a blank line) goes out. */
    public static final Duration KEEP_ALIVE = Duration.ofSeconds(10);
    /** How long a reader waits without a line or a keep-alive before it takes the writer for dead: three of them. */
    public static final Duration SILENCE = Duration.ofSeconds(30);
    /** How long a writer waits for its reader to take a line before it cuts the stream (a paused terminal). */
    public static final Duration NO_DEMAND = Duration.ofMinutes(5);

    private static final byte[] BLANK = "\n".getBytes(StandardCharsets.UTF_8);

    private final LineQueue queue;
    private final Duration keepAlive;
    private final Duration noDemand;
    private final String name;
    private final Demand demand = new Demand();

    public LinePublisher(String name, LineQueue queue, Duration keepAlive, Duration noDemand) {
        this.name = name;
        this.queue = queue;
        this.keepAlive = keepAlive;
        this.noDemand = noDemand;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super byte[]> subscriber) {
        if (demand.subscribe(subscriber, "a log stream", queue::close)) {
            Thread.ofVirtual().name("logs " + name).start(() -> pump(subscriber));
        }
    }

    /** The writing loop, on its own virtual thread: every signal to the subscriber comes from here, in order. */
    private void pump(Flow.Subscriber<? super byte[]> subscriber) {
        try {
            while (true) {
                String stop = demand.await(noDemand, () -> "the reader of the logs of " + name + " took nothing for "
                        + noDemand.toSeconds() + " s (stopped, or the link to it is down): the stream is cut");
                if (stop != null) {
                    queue.close();
                    if (!stop.isEmpty()) {
                        subscriber.onError(new java.io.IOException(stop));
                    }
                    return;
                }
                LogLine line = queue.next(keepAlive);
                if (line == LineQueue.DONE) {
                    subscriber.onComplete();
                    queue.close();   // its close actions run: the stream is no longer listed as open
                    return;
                }
                if (demand.stopped() != null) {
                    return;
                }
                demand.taken();
                subscriber.onNext(line == null ? BLANK : line.ndjson());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            queue.close();
            subscriber.onError(e);
        } catch (RuntimeException e) {
            queue.close();
            subscriber.onError(e);
        }
    }
}
