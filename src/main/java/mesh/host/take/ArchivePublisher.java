package mesh.host.take;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import mesh.wire.Demand;

/**
 * ArchivePublisher is a volume's tar archive as a stream of chunks that is read only as fast as its reader
 * takes it. A chunk of tar's stdout is read only once the subscriber asked for one, on a virtual thread of
 * its own (never the event loop); the HTTP layer asks for the next only when the previous write completed,
 * so at most a chunk or two of the archive are in memory whatever the link's speed. The old
 * {@code StreamingOutput} wrote as fast as tar read, and an agent with {@code -Xmx64m} (which caps direct
 * buffers at 64 MB too) died of {@code OutOfMemoryError: Cannot reserve … direct buffer memory} when the
 * reader was slower (quarkusio/quarkus#50317, quarkusio/quarkus#41635).
 *
 * <p>The stream ends in one of four ways: tar's end (complete, or an error when tar failed, so the reader sees
 * a broken archive, never a short complete one); the subscriber's cancel (the reader went away: tar killed);
 * no demand for {@link #NO_DEMAND} (the reader stopped reading: tar killed, the stream errored); or
 * {@link #cut} (the fence it was read under was lifted or replaced: tar killed, the stream errored). One
 * subscriber only: an archive is read once.
 */
public final class ArchivePublisher implements Flow.Publisher<byte[]> {

    /** How long the publisher waits for its reader to ask for more before it gives up on it. */
    public static final Duration NO_DEMAND = Duration.ofSeconds(60);

    /** The size of a chunk: large enough for full speed, small enough that a few in flight stay cheap. */
    static final int CHUNK = 256 * 1024;

    private final Path folder;
    private final Duration noDemand;
    private final Runnable ended;
    private final Demand demand = new Demand();
    private final Object tarLock = new Object();
    private Process tar;
    private final List<String> command;
    private final boolean live;
    private final String hold;

    /**
     * The archive of {@code folder}; {@code ended} runs once when the stream ends, however it ends (the
     * agent's list of running archives forgets it then).
     */
    public ArchivePublisher(Path folder, Duration noDemand, Runnable ended) {
        this(folder, TarStreams.archiveCommand(folder), false, "copy", noDemand, ended);
    }

    /**
     * The archive tar writes with {@code command} (of {@code folder}'s entries). {@code live}: the module runs while
     * it is read (a take's pre-copy), so tar's exit 1 (a file changed or vanished as it was read) is no failure: the
     * next pass, or the delta after the fence, sends that file again. {@code hold} is the test hook's word
     * ({@link TakeTestHold}).
     */
    public ArchivePublisher(Path folder, List<String> command, boolean live, String hold, Duration noDemand, Runnable ended) {
        this.folder = folder;
        this.command = List.copyOf(command);
        this.live = live;
        this.hold = hold;
        this.noDemand = noDemand;
        this.ended = ended;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super byte[]> subscriber) {
        if (demand.subscribe(subscriber, "an archive", this::kill)) {
            Thread.ofVirtual().name("archive " + folder.getFileName()).start(() -> pump(subscriber));
        }
    }

    /**
     * Cuts the stream: tar is killed and the reader gets an error (a broken archive) saying {@code why}. The
     * source cuts its archives of a module when that module's fence is lifted or replaced.
     */
    public void cut(String why) {
        boolean never = demand.cut(why);
        kill();
        if (never) {
            ended.run();
        }
    }

    private void kill() {
        Process p;
        synchronized (tarLock) {
            p = tar;
        }
        if (p != null) {
            p.destroyForcibly();
        }
    }

    /** The reading loop, on its own virtual thread: every signal to the subscriber comes from here, in order. */
    private void pump(Flow.Subscriber<? super byte[]> subscriber) {
        Process p = null;
        try {
            p = start();
            if (p == null) {
                return;   // cancelled or cut before tar ran
            }
            CompletableFuture<String> errors = TarStreams.tail(p.getErrorStream());
            long passed = 0;
            boolean held = !TakeTestHold.set();
            try (InputStream in = p.getInputStream()) {
                while (true) {
                    String stop = awaitDemand();
                    if (stop != null) {
                        p.destroyForcibly();
                        if (!stop.isEmpty()) {
                            subscriber.onError(new IOException(stop));
                        }
                        return;
                    }
                    byte[] chunk = in.readNBytes(held ? CHUNK : (int) Math.max(1, TakeTestHold.MIDWAY - passed));
                    if (chunk.length == 0) {
                        if (!held) {   // shorter than the hold's bytes (a delta): it pauses before its end instead
                            held = true;
                            TakeTestHold.at(hold);
                        }
                        break;
                    }
                    String after = demand.stopped();
                    if (after != null) {   // cut or cancelled while tar was read: its last bytes go nowhere
                        p.destroyForcibly();
                        if (!after.isEmpty()) {
                            subscriber.onError(new IOException(after));
                        }
                        return;
                    }
                    demand.taken();
                    passed += chunk.length;
                    subscriber.onNext(chunk);
                    if (!held && passed >= TakeTestHold.MIDWAY) {
                        held = true;
                        TakeTestHold.at(hold);
                    }
                }
            }
            int exit = TarStreams.waitFor(p);
            String after = demand.stopped();
            if (after != null) {
                if (!after.isEmpty()) {
                    subscriber.onError(new IOException(after));
                }
            } else if (exit != 0 && !(live && exit == 1)) {
                subscriber.onError(new IOException("tar could not read " + folder + " (exit " + exit + "): "
                        + errors.join()));
            } else {
                subscriber.onComplete();
            }
        } catch (IOException | RuntimeException e) {
            if (p != null) {
                p.destroyForcibly();
            }
            String after = demand.stopped();
            if (after == null || !after.isEmpty()) {
                subscriber.onError(after == null ? e : new IOException(after));
            }
        } finally {
            ended.run();
        }
    }

    private Process start() throws IOException {
        synchronized (tarLock) {
            if (demand.stopped() != null) {
                return null;
            }
            tar = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            return tar;
        }
    }

    /**
     * Waits until the subscriber asked for a chunk; null then. Otherwise why the stream stops: empty when the
     * subscriber cancelled (no signal is owed to it), the cut's reason, or the reader's silence.
     */
    private String awaitDemand() {
        return demand.await(noDemand, () -> "the reader of " + folder + " asked for no data for "
                + Demand.words(noDemand) + " (stopped, or the link to it is down): the archive is cut");
    }

    /** The tar process, once started (null before): what its reader's test looks at. */
    Process tar() {
        synchronized (tarLock) {
            return tar;
        }
    }
}
