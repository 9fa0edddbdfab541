package mesh.host.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import mesh.bundle.Digest;
import mesh.bundle.Registry;
import mesh.host.take.HashCache;
import mesh.model.VolumeManifest;

/**
 * ChunkedWrite writes a restore's chunked file ({@link Chunks}) into the empty file tar made for it, {@link #STREAMS}
 * chunks at once, each fetched from its own blob and written at its own offset through one channel (positional writes),
 * so the registry sends on several connections: one stream after the other ({@link ChunkStream} into {@link
 * FileFromBlob}) restored a 2 GB file at about 0.7× the time of `zstd -d | tar -x` (docs/benchmarks.md,
 * "scripts/bench/backup"). Beside them, one more thread reads the file back in order (from the page cache) as each
 * chunk is written and hashes the whole: the file must be the manifest entry's content (its sha256), the same check a
 * file of one blob gets, and the one pass of SHA-256 over its bytes (a chunk is not hashed on its own as well: on two
 * cores that second pass cost the restore a quarter of its speed). When the whole is not the manifest's, each chunk
 * is read back and hashed to name the first that is not the backup's config's; if every chunk is, the backup itself
 * is not whole (its chunks are not its manifest's file) and is refused so. And one more writes the file to disk
 * chunk by chunk as they are written ({@link #durable}). Each thread that fetches or reads holds one buffer of
 * {@link #BUFFER} bytes.
 */
final class ChunkedWrite {

    /** How many chunks are fetched and written at once. */
    static final int STREAMS = ChunkedUpload.STREAMS;
    private static final int BUFFER = 1024 * 1024;

    private ChunkedWrite() {
    }

    /**
     * Writes the content of {@code e}, listed as {@code chunked} in the backup's config, into {@code file}; the file's
     * key as written, for the check's scan not to read it again (its sha256 was taken as it was written). A chunk of
     * more or fewer bytes than the config's, or a file that is not the entry's content, stops the restore naming
     * {@code what} (and the chunk that is not the backup's).
     */
    static HashCache.Key write(Registry registry, String repository, BackupArtifact.Chunked chunked, Path file,
                               VolumeManifest.Entry e, String what, BackupCounters counters) throws IOException {
        List<BackupArtifact.Chunk> chunks = chunked.chunks();
        long[] offsets = offsets(chunks, e, what);
        CountDownLatch[] done = new CountDownLatch[chunks.size()];
        for (int k = 0; k < done.length; k++) {
            done[k] = new CountDownLatch(1);
        }
        AtomicInteger next = new AtomicInteger();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            List<Callable<String>> work = new ArrayList<>();
            for (int i = 0; i < Math.min(STREAMS, chunks.size()); i++) {
                work.add(() -> {
                    byte[] buffer = new byte[BUFFER];
                    for (int k = next.getAndIncrement(); k < chunks.size(); k = next.getAndIncrement()) {
                        one(registry, repository, chunks.get(k), new Where(what, k, chunks.size(), offsets[k]), out, buffer, counters);
                        done[k].countDown();
                    }
                    return null;
                });
            }
            work.add(() -> whole(file, chunks, done, e, what));
            work.add(() -> durable(out, done));
            SideBySide.run("restore-chunk-", work);
        }
        return HashCache.Key.of(file);
    }

    /**
     * Writes the file to disk as its chunks are written, in order, beside the fetches (fdatasync after each): the
     * volume's sync that ends a restore then finds little of it left. Left to that sync, the writeback of a 2 GB file
     * came after its last chunk, all of it on the restore's path (2.3 s here; docs/benchmarks.md, "scripts/bench/backup").
     */
    private static String durable(FileChannel out, CountDownLatch[] done) throws IOException, InterruptedException {
        for (CountDownLatch d : done) {
            d.await();
            out.force(false);
        }
        return null;
    }

    /**
     * Where each chunk begins; refused unless every chunk holds bytes and their sizes add up to the entry's (the
     * content itself is checked as it is written: the whole file's sha256).
     */
    private static long[] offsets(List<BackupArtifact.Chunk> chunks, VolumeManifest.Entry e, String what) {
        long[] offsets = new long[chunks.size()];
        long total = 0;
        for (int k = 0; k < chunks.size(); k++) {
            if (chunks.get(k).size() <= 0) {
                throw new BackupBroken(what + ": the backup's config lists chunk " + (k + 1) + " of " + chunks.size()
                        + " with " + chunks.get(k).size() + " bytes");
            }
            offsets[k] = total;
            total += chunks.get(k).size();
        }
        if (total != e.size()) {
            throw new BackupBroken(what + ": the backup's config lists chunks of " + total + " bytes for it, the manifest "
                    + e.size() + " bytes");
        }
        return offsets;
    }

    /** Chunk {@code k} of {@code n} of the file {@code what}, from {@code offset}. */
    private record Where(String what, int k, int n, long offset) {
        String named() {
            return what + ": chunk " + (k + 1) + " of " + n + " (bytes from " + offset + ")";
        }
    }

    /** Fetches one chunk's blob into the file at its offset: exactly the size the backup's config gives it. */
    private static void one(Registry registry, String repository, BackupArtifact.Chunk c, Where at, FileChannel out,
                            byte[] buffer, BackupCounters counters) {
        counters.check();
        long written = 0;
        try (InputStream in = BackupFetch.blob(registry, repository, c.sha256(), at.what() + " (chunk " + (at.k() + 1)
                + " of " + at.n() + ")")) {
            while (written < c.size()) {
                int got = in.readNBytes(buffer, 0, (int) Math.min(buffer.length, c.size() - written));
                if (got == 0) {
                    throw new BackupBroken(at.named() + ": its blob ends " + (c.size() - written) + " bytes early");
                }
                ByteBuffer b = ByteBuffer.wrap(buffer, 0, got);
                long position = at.offset() + written;
                while (b.hasRemaining()) {
                    position += out.write(b, position);
                }
                written += got;
                counters.bytes.addAndGet(got);
                counters.check();
            }
            if (in.read() >= 0) {
                throw new BackupBroken(at.named() + ": its blob is longer than the " + c.size() + " bytes the backup's config says");
            }
        } catch (IOException x) {   // the registry closed the blob early ("Premature EOF"), or the write failed
            throw new BackupBroken(at.named() + ": its blob could not be read to its end, or written ("
                    + (x.getMessage() == null ? x.toString() : x.getMessage()) + ")", x);
        }
    }

    /**
     * Reads the file back in order, each chunk once it is written and checked, and hashes the whole: it must be the
     * manifest entry's content.
     */
    private static String whole(Path file, List<BackupArtifact.Chunk> chunks, CountDownLatch[] done, VolumeManifest.Entry e,
                                String what) throws IOException, InterruptedException {
        MessageDigest sha = Digest.sha256();
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
        long n = 0;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            for (int k = 0; k < chunks.size(); k++) {
                done[k].await();
                long size = chunks.get(k).size();
                long got = hash(in, n, size, sha, buffer);
                n += got;
                if (got < size) {
                    throw new BackupBroken(what + ": ends at " + n + " bytes as written, not " + e.size());
                }
            }
        }
        String found = HexFormat.of().formatHex(sha.digest());
        if (!found.equals(e.sha256())) {
            throw notTheBackups(file, chunks, what, found, e);
        }
        return null;
    }

    /** Feeds {@code sha} the {@code size} bytes of {@code in} from {@code from}; how many there were (fewer at its end). */
    private static long hash(FileChannel in, long from, long size, MessageDigest sha, ByteBuffer buffer) throws IOException {
        long n = 0;
        while (n < size) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), size - n));
            int got = in.read(buffer, from + n);
            if (got <= 0) {
                break;
            }
            sha.update(buffer.array(), 0, got);
            n += got;
        }
        return n;
    }

    /**
     * The whole file as written is not the manifest's: the first chunk whose bytes as written are not the config's
     * (read back and hashed: the slow path, taken only for a broken backup) is named; if there is none, the backup's
     * chunks are each its config's but not, together, the file its manifest names.
     */
    private static BackupBroken notTheBackups(Path file, List<BackupArtifact.Chunk> chunks, String what, String found,
                                              VolumeManifest.Entry e) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
        long offset = 0;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            for (int k = 0; k < chunks.size(); k++) {
                BackupArtifact.Chunk c = chunks.get(k);
                MessageDigest sha = Digest.sha256();
                hash(in, offset, c.size(), sha, buffer);
                String chunk = HexFormat.of().formatHex(sha.digest());
                if (!chunk.equals(c.sha256())) {
                    return new BackupBroken(new Where(what, k, chunks.size(), offset).named() + ": its content in the registry"
                            + " is not the backup's (sha256 " + BackupRestore.short12(chunk) + "; the backup's config says "
                            + BackupRestore.short12(c.sha256()) + ")");
                }
                offset += c.size();
            }
        }
        return new BackupBroken(what + ": its chunks in the registry, each the backup's config's, are not the file the"
                + " backup's manifest names (sha256 " + BackupRestore.short12(found) + "; the manifest says "
                + BackupRestore.short12(e.sha256()) + "): the backup is not whole; restore an earlier one");
    }
}
