package mesh.host.take;

import com.dynatrace.hash4j.hashing.HashStream128;
import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hashing;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mesh.plan.BlockDelta;
import mesh.plan.RangeScan;

/**
 * RangeScanner hashes a file for a range answer ({@link RangePublisher}) on {@link #THREADS} threads of its own, piece by
 * piece in {@link RangeScan}'s order: each block the target holds one at gets its {@link BlockHashes} hash, each kept
 * interval its XXH3-128 fingerprint compared with the one the warm manifest kept ({@link Checkpoints}). The pieces of a
 * changed file are independent, so after the fence the read that grows with the file runs on every core instead of one.
 * The answer sends a piece's blocks once the piece is hashed ({@link #await}), reading the few it sends again, so the
 * threads hold one block each and never wait for the link: the back-pressure is the answer's. When the source's sha256
 * is wanted (read under the fence), one more thread takes it: from the checkpoint of the first interval that differs
 * ({@link RangeScan#resumeAt}) as soon as that is known, or from the file's start at once without kept checkpoints.
 * Memory: {@link #CHUNK} bytes per thread (twice: its buffer and the JDK's), a hash per block (at most
 * {@link BlockDelta#MAX_BLOCKS}), a byte per interval.
 */
final class RangeScanner implements AutoCloseable {

    /** The hashing threads: both cores of a small node, never more than two, so the agent's other work goes on. */
    static final int THREADS = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
    /** What a thread reads at a time (a block is hashed chunk by chunk): its buffer, and the JDK's direct one beside it. */
    private static final int CHUNK = 256 * 1024;

    private final FileChannel ch;
    private final long size;
    private final int block;
    private final int targetBlocks;
    private final List<RangeScan.Piece> pieces;
    private final Checkpoints.Kept kept;
    private final long[] hashes;
    private final byte[] states;
    private final CountDownLatch[] done;
    private final AtomicInteger next = new AtomicInteger();
    private final CompletableFuture<String> sha = new CompletableFuture<>();
    private final Thread[] threads;
    private volatile boolean closed;
    private volatile IOException failure;
    private volatile long hashedFrom = -1;

    /**
     * A scan of the {@code size} bytes of the file open in {@code ch}, in blocks of {@code block}, against a target copy
     * of {@code targetBlocks} blocks; {@code kept}: the file's checkpoints (null: none); {@code sha256}: whether to take
     * the file's whole sha256 too.
     */
    RangeScanner(FileChannel ch, long size, int block, int targetBlocks, Checkpoints.Kept kept, boolean sha256) {
        this.ch = ch;
        this.size = size;
        this.block = block;
        this.targetBlocks = targetBlocks;
        boolean usable = kept != null && kept.intervals() > 0;
        this.pieces = RangeScan.pieces(size, block, targetBlocks, usable ? kept.every() : 0, usable ? kept.intervals() : 0);
        this.kept = usable && RangeScan.intervals(pieces) > 0 ? kept : null;
        this.hashes = new long[BlockDelta.blocks(size, block)];
        this.states = new byte[RangeScan.intervals(pieces)];
        this.done = new CountDownLatch[pieces.size()];
        for (int i = 0; i < done.length; i++) {
            done[i] = new CountDownLatch(1);
        }
        this.threads = new Thread[THREADS + (sha256 ? 1 : 0)];
        for (int i = 0; i < THREADS; i++) {
            threads[i] = Thread.ofPlatform().daemon().name("ranges-hash-" + i).unstarted(this::work);
        }
        if (sha256) {
            threads[THREADS] = Thread.ofPlatform().daemon().name("ranges-sha256").unstarted(this::sha256);
        } else {
            sha.complete(null);
        }
    }

    RangeScanner start() {
        for (Thread t : threads) {
            t.start();
        }
        return this;
    }

    /** The pieces in the order they are hashed and sent. */
    List<RangeScan.Piece> pieces() {
        return pieces;
    }

    /** Waits up to {@code nanos} for piece {@code i} to be hashed; true once it is (or the scan failed: see {@link #failure}). */
    boolean await(int i, long nanos) throws InterruptedException {
        return done[i].await(nanos, TimeUnit.NANOSECONDS);
    }

    /** Why the scan stopped (a read failed), or null. */
    IOException failure() {
        return failure;
    }

    /** The hash of block {@code b}, once its piece is hashed. */
    long hash(int b) {
        return hashes[b];
    }

    /** The file's whole sha256 (hex; null when not asked for), once every piece was hashed; waits for it. */
    String sha256Now() throws IOException {
        try {
            return sha.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** As {@link #sha256Now}, waiting {@code nanos} at most. */
    String sha256Within(long nanos) throws IOException, InterruptedException, java.util.concurrent.TimeoutException {
        try {
            return sha.get(nanos, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** Where SHA-256 began reading: 0 without checkpoints, else the checkpoint it resumed from (-1: not begun). */
    long hashedFrom() {
        return hashedFrom;
    }

    @Override
    public void close() {
        closed = true;
        synchronized (states) {
            states.notifyAll();
        }
        for (Thread t : threads) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A hashing thread: the next piece in order until none is left; every piece is counted done, hashed or not. */
    private void work() {
        byte[] bytes = new byte[Math.min(block, CHUNK)];
        HashStream128 mark = Hashing.xxh3_128().hashStream();
        for (int i; (i = next.getAndIncrement()) < pieces.size(); ) {
            RangeScan.Piece p = pieces.get(i);
            try {
                if (p.work() && !closed && failure == null) {
                    hash(p, bytes, mark);
                }
            } catch (IOException | RuntimeException e) {
                failure = e instanceof IOException io ? io : new IOException(e);
                closed = true;
            } finally {
                done[i].countDown();
            }
        }
        if (closed) {   // a failure or a close: no piece is waited for in vain
            for (CountDownLatch d : done) {
                d.countDown();
            }
            synchronized (states) {
                states.notifyAll();
            }
        }
    }

    private void hash(RangeScan.Piece p, byte[] bytes, HashStream128 mark) throws IOException {
        mark.reset();
        for (int b = p.first(); b < p.first() + p.count() && !closed; b++) {
            long length = BlockDelta.length(size, block, b);
            java.util.zip.CRC32C c = b < targetBlocks ? new java.util.zip.CRC32C() : null;
            java.util.zip.CRC32 d = c == null ? null : new java.util.zip.CRC32();
            for (long off = 0; off < length; ) {   // a chunk at a time: BlockHashes.of of the block as read
                int want = (int) Math.min(bytes.length, length - off);
                int n = read(ch, bytes, (long) b * block + off, want);
                if (c != null) {
                    c.update(bytes, 0, n);
                    d.update(bytes, 0, n);
                }
                if (p.interval() >= 0) {
                    mark.putBytes(bytes, 0, n);
                }
                off = n < want ? length : off + n;   // the file ends here (it shrank while read: a live pass)
            }
            if (c != null) {
                hashes[b] = c.getValue() << 32 | d.getValue();
            }
        }
        if (p.interval() >= 0 && !closed) {
            HashValue128 m = mark.get();
            boolean same = m.getMostSignificantBits() == kept.marks()[2 * p.interval()]
                    && m.getLeastSignificantBits() == kept.marks()[2 * p.interval() + 1];
            synchronized (states) {
                states[p.interval()] = same ? RangeScan.SAME : RangeScan.DIFFERS;
                states.notifyAll();
            }
        }
    }

    /**
     * The sha256 thread. With kept checkpoints it does not wait to know where to start: it takes the file's most common
     * change after the warm manifest to be an append (every kept interval unchanged) and hashes from the last checkpoint
     * at once, beside the hashing threads, so an appended tail is hashed while the rest is fingerprinted, not after it.
     * Once the start is known ({@link RangeScan#resumeAt}) that guess is kept when it was right, and otherwise thrown away
     * (as soon as an interval is found changed) and SHA-256 resumes from the first changed interval's checkpoint.
     */
    private void sha256() {
        try {
            byte[] bytes = new byte[Math.min(block, CHUNK)];
            int guess = kept == null ? 0 : states.length;
            MessageDigest digest = hashFrom(guess, bytes);
            int from;
            synchronized (states) {
                while ((from = RangeScan.resumeAt(states)) < 0 && !closed) {
                    states.wait();
                }
            }
            if (closed) {
                sha.completeExceptionally(new IOException(failure != null ? failure.getMessage() : "the scan was closed"));
                return;
            }
            if (from != guess || digest == null) {
                digest = hashFrom(from, bytes);
            }
            if (digest == null) {
                throw new IOException("the scan was closed");
            }
            sha.complete(HexFormat.of().formatHex(digest.digest()));
        } catch (IOException | RuntimeException e) {
            sha.completeExceptionally(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sha.completeExceptionally(e);
        }
    }

    /**
     * SHA-256 from checkpoint {@code from} (the file's start without kept ones) to the end; null when given up: the scan
     * closed, or (from a guess) an interval before {@code from} found changed, which makes the guess wrong.
     */
    private MessageDigest hashFrom(int from, byte[] bytes) throws IOException {
        long at = kept == null ? 0 : (long) from * kept.every();
        MessageDigest digest = kept == null ? ShaStates.newDigest() : ShaStates.copy(kept.states().get(from));
        hashedFrom = at;
        while (at < size && !closed && !changedBefore(from)) {
            int n = read(ch, bytes, at, (int) Math.min(bytes.length, size - at));
            if (n == 0) {
                throw new IOException("the file ended at " + at + " bytes while hashed");
            }
            digest.update(bytes, 0, n);
            at += n;
        }
        return at < size ? null : digest;
    }

    /** Whether an interval before {@code from} is known changed (a change since its checkpoint, not an appended tail). */
    private boolean changedBefore(int from) {
        for (int i = 0; i < from; i++) {
            if (states[i] == RangeScan.DIFFERS) {
                return true;
            }
        }
        return false;
    }

    /** Reads up to {@code length} bytes at {@code at} into {@code bytes}; fewer only where the file ends. */
    static int read(FileChannel ch, byte[] bytes, long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, length);
        BlockHashes.readFully(ch, b, at);
        return b.position();
    }
}
