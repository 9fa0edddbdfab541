package mesh.host.take;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drain is a test reader of an {@link ArchivePublisher}: it asks for one chunk at a time, as the HTTP layer
 * does, keeps what it got, and ends {@link #end} with the bytes or the stream's error. {@code pause(n)} stops
 * asking after n chunks, as a reader that stopped reading would.
 */
final class Drain implements Flow.Subscriber<byte[]> {

    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final CompletableFuture<byte[]> end = new CompletableFuture<>();
    final AtomicLong chunks = new AtomicLong();
    private final long askFor;
    private Flow.Subscription subscription;

    /** A reader that takes everything. */
    Drain() {
        this(Long.MAX_VALUE);
    }

    /** A reader that stops asking after {@code askFor} chunks. */
    Drain(long askFor) {
        this.askFor = askFor;
    }

    static byte[] all(ArchivePublisher archive) {
        Drain d = new Drain();
        archive.subscribe(d);
        return d.end.join();
    }

    void cancel() {
        subscription.cancel();
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(1);
    }

    @Override
    public void onNext(byte[] item) {
        bytes.writeBytes(item);
        if (chunks.incrementAndGet() < askFor) {
            subscription.request(1);
        }
    }

    @Override
    public void onError(Throwable t) {
        end.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        end.complete(bytes.toByteArray());
    }
}
