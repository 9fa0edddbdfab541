package mesh.host.take;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.Flow;
import mesh.plan.BlockDelta;
import mesh.wire.Demand;
import mesh.wire.RangeRequest;
import org.jboss.logging.Logger;

/**
 * RangePublisher is the source's answer to a range request ({@link RangeRequest}): the blocks of one file that differ
 * from the target's copy, as frames ({@link RangeFrames}) read only as fast as the reader takes them, as
 * {@link ArchivePublisher} streams an archive: a block is read and hashed on a virtual thread of its own and sent only
 * once the subscriber asked for one, so one block is in memory whatever the link's speed. While it reads blocks the
 * target already has, it says it is alive once a second (the target's stall rule). It ends with the file's size as
 * read; the subscriber's cancel or no demand for {@link ArchivePublisher#NO_DEMAND} ends it early. The file is read and
 * hashed by a {@link RangeScanner} on two threads, piece by piece; the blocks to send are read again here (the few that
 * differ), an appended tail first, so they cross while the rest is hashed. Read under the module's fence, the scanner also
 * takes the file's whole sha256, kept for the verify ({@link HashCache#fenced}), which then reads nothing of the file
 * again: the file is read once after the fence (on both cores), and SHA-256 only from the first interval that changed
 * since the warm manifest.
 */
public final class RangePublisher implements Flow.Publisher<byte[]> {

    private static final long BEAT_NS = Duration.ofSeconds(1).toNanos();
    private static final Logger LOG = Logger.getLogger("mesh.host");

    private final Path file;
    private final RangeRequest request;
    private final Duration noDemand;
    private final Demand demand = new Demand();
    private final HashCache sums;
    private final Checkpoints points;

    public RangePublisher(Path file, RangeRequest request, Duration noDemand) {
        this(file, request, noDemand, null, null);
    }

    /**
     * As above, keeping the file's whole sha256 in {@code sums} once read whole (null: a live read, not hashed), resumed
     * from the file's checkpoints in {@code points} (null: none).
     */
    RangePublisher(Path file, RangeRequest request, Duration noDemand, HashCache sums, Checkpoints points) {
        this.file = file;
        this.request = request;
        this.noDemand = noDemand;
        this.sums = sums;
        this.points = points;
    }

    /**
     * The answer to {@code request} for a file of the volume in {@code folder}: refused unless the path is a regular file
     * inside it (links not followed) and the block a power of two from 1 MiB with one hash per block of the copy.
     */
    static RangePublisher of(Path folder, String module, String volume, RangeRequest request, HashCache sums,
                             Checkpoints points) {
        TarStreams.inside(request.path());
        int block = request.block();
        long[] hashes = request.hashes() == null ? new long[0] : request.hashes();
        if (block < BlockDelta.MIN_BLOCK || block > 1 << 30 || Integer.bitCount(block) != 1
                || hashes.length > BlockDelta.MAX_BLOCKS || hashes.length != BlockDelta.blocks(request.size(), block)) {
            throw TakeRefused.bad("a range request needs a block of a power of two from 1 MiB to 1 GiB and one hash per"
                    + " block of the copy's size, at most " + BlockDelta.MAX_BLOCKS);
        }
        Path file = folder.resolve(request.path());
        String none = "volume " + volume + " of module " + module + " holds no file " + request.path();
        try {
            if (!java.nio.file.Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    || !file.toRealPath().startsWith(folder.toRealPath())) {
                throw TakeRefused.conflict(none);
            }
        } catch (IOException e) {
            throw TakeRefused.conflict(none + ": " + e.getMessage());
        }
        return new RangePublisher(file, new RangeRequest(request.path(), block, request.size(), hashes), ArchivePublisher.NO_DEMAND,
                sums, points);
    }

    @Override
    public void subscribe(Flow.Subscriber<? super byte[]> subscriber) {
        if (demand.subscribe(subscriber, "a range answer", () -> { })) {
            Thread.ofVirtual().name("ranges " + file.getFileName()).start(() -> pump(subscriber));
        }
    }

    /**
     * The sending loop: every signal to the subscriber comes from here, in order. The file is hashed by a
     * {@link RangeScanner} on threads of its own, piece by piece; this loop sends each piece's blocks that differ once
     * the piece is hashed, in the scanner's order (an appended tail first), reading those blocks again, and says it is
     * alive while it waits. A block read short (the file shrank while read: a live pass) ends the file there.
     */
    private void pump(Flow.Subscriber<? super byte[]> subscriber) {
        int block = request.block();
        byte[] bytes = new byte[block];
        long began = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            HashCache.Key was = sums == null ? null : HashCache.Key.of(file);
            long size = ch.size();
            Checkpoints.Kept kept = sums == null || points == null ? null : points.get(file);
            long end = size;
            long said = System.nanoTime();
            try (RangeScanner scan = new RangeScanner(ch, size, block, request.hashes().length, kept, sums != null).start()) {
                for (int p = 0; p < scan.pieces().size(); p++) {
                    while (!scan.await(p, BEAT_NS)) {
                        if (!send(subscriber, RangeFrames.alive())) {
                            return;
                        }
                        said = System.nanoTime();
                    }
                    if (scan.failure() != null) {
                        throw scan.failure();
                    }
                    mesh.plan.RangeScan.Piece piece = scan.pieces().get(p);
                    for (int i = piece.first(); i < piece.first() + piece.count(); i++) {
                        long at = (long) i * block;
                        byte[] frame = null;
                        if (at < end && (!piece.hashed() || BlockDelta.sends(i, scan.hash(i), size, request.hashes(),
                                request.size(), block))) {
                            int n = RangeScanner.read(ch, bytes, at, (int) BlockDelta.length(size, block, i));
                            if (n < BlockDelta.length(size, block, i)) {
                                end = Math.min(end, at + n);   // the file shrank while read (a live pass): it ends here
                            }
                            frame = n == 0 ? null : RangeFrames.data(at, ByteBuffer.wrap(bytes, 0, n));
                        }
                        if (frame == null && System.nanoTime() - said > BEAT_NS) {
                            frame = RangeFrames.alive();
                        }
                        if (frame != null) {
                            if (!send(subscriber, frame)) {
                                return;
                            }
                            said = System.nanoTime();
                        }
                    }
                }
                String sha = null;
                for (boolean waiting = sums != null; waiting; ) {
                    try {
                        sha = scan.sha256Within(BEAT_NS);
                        waiting = false;
                    } catch (java.util.concurrent.TimeoutException stillHashing) {
                        if (!send(subscriber, RangeFrames.alive())) {
                            return;
                        }
                    } catch (IOException e) {
                        waiting = false;   // the verify hashes the file itself
                    }
                }
                if (sha != null && end == size && was.size() == size && HashCache.Key.of(file).equals(was)) {
                    sums.fenced(was, sha);
                    LOG.infof("ranges of %s under the fence: read and hashed on %d threads in %.3f s, its sha256 for the verify"
                            + " taken from byte %d of %d (the bytes before it fingerprinted, unchanged since the checkpoints)",
                            file, RangeScanner.THREADS, (System.nanoTime() - began) / 1e9, scan.hashedFrom(), size);
                }
            }
            if (send(subscriber, RangeFrames.end(end))) {
                subscriber.onComplete();
            }
        } catch (IOException | RuntimeException e) {
            subscriber.onError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            subscriber.onError(e);
        }
    }

    /** Sends {@code frame} once asked for; false when the stream stopped instead (the subscriber told so, or owed nothing). */
    private boolean send(Flow.Subscriber<? super byte[]> subscriber, byte[] frame) {
        String stop = demand.await(noDemand, () -> "the reader of the ranges of " + file + " asked for no data for "
                + noDemand.toSeconds() + " s: the answer is cut");
        if (stop != null) {
            if (!stop.isEmpty()) {
                subscriber.onError(new IOException(stop));
            }
            return false;
        }
        demand.taken();
        subscriber.onNext(frame);
        return true;
    }
}
