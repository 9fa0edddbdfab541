package mesh.host.backup;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import mesh.bundle.BundleFailure;
import mesh.bundle.Digest;
import mesh.bundle.Registry;
import mesh.host.take.HashCache;
import mesh.host.take.VolumeScan;
import mesh.model.VolumeManifest;

/**
 * ChunkedUpload sends one file over {@link Chunks#SIZE} as its chunks, each a blob of its own, {@link #STREAMS} at once:
 * the registry hashes each upload on one core, so one stream of a 2 GB file took 0.69× the time of `tar | zstd`
 * (docs/benchmarks.md, "scripts/bench/backup"). Four threads take the file's chunks in turn (two left the machine a
 * third idle: each stream waits on its chunk's hash, HEAD, POST and commit in turn, and four keep both cores busy),
 * each reading its own range of the file through its own channel, never a chunk whole in memory: a chunk is
 * read and hashed, asked for with HEAD, and only when the registry lacks it read again and sent under that digest
 * (which the registry checks). So a chunk the registry has (an unchanged part of a changed file, or every chunk of an
 * unchanged file after the agent restarted) is never sent.
 *
 * <p>The whole file's sha256 is what its manifest entry holds (the take's form, unchanged; a restore checks it as it
 * writes). SHA-256 runs over its input in order and cannot be put together from the chunks' hashes, and chunks
 * read side by side cannot feed it in order without holding them (64 MiB: the agent's whole heap). So when the scan
 * left a file's hash out (its content is new to this agent), one more thread reads the file from start to end for that
 * hash alone, beside the ones that cut it: the same bytes come from the page cache, and the CPU is two hashes a byte,
 * as it is for any design that needs both the chunks' and the file's hash. A file whose hash ({@link HashCache}) and
 * chunks ({@link ChunkNames}) this agent knows is not read at all: each chunk is asked for with HEAD and read and sent
 * only when missing. The file's identity (device, inode, size, times) is compared before and after: a file that
 * changed meanwhile is refused.
 */
final class ChunkedUpload {

    /** How many chunks of one file are read and sent at once: four upload streams (docs/backup.md, "Chunks"). */
    static final int STREAMS = 4;
    private static final int BUFFER = 1024 * 1024;

    private final Registry registry;
    private final String repository;
    private final HashCache hashes;
    private final ChunkNames names;

    ChunkedUpload(Registry registry, String repository, HashCache hashes, ChunkNames names) {
        this.registry = registry;
        this.repository = repository;
        this.hashes = hashes;
        this.names = names;
    }

    /**
     * Sends the chunks of {@code file} (its scan's entry {@code e}, whose sha256 is null when the scan left it) that the
     * registry lacks; the content as the backup's config lists it. Its hash and chunks are kept for the next backup.
     */
    BackupArtifact.Chunked send(Path file, VolumeManifest.Entry e, BackupCounters counters) {
        counters.check();
        long started = VolumeScan.now();
        HashCache.Key before = key(file);
        if (before.size() != e.size()) {
            throw changed(file);
        }
        List<Chunks.Range> ranges = Chunks.cut(e.size());
        List<BackupArtifact.Chunk> remembered = e.sha256() == null ? null : names.chunks(e.sha256());
        List<BackupArtifact.Chunk> known = remembered != null && remembered.size() == ranges.size() ? remembered : null;
        BackupArtifact.Chunk[] chunks = new BackupArtifact.Chunk[ranges.size()];
        AtomicInteger next = new AtomicInteger();
        List<Callable<String>> work = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            work.add(() -> {
                for (int k = next.getAndIncrement(); k < ranges.size(); k = next.getAndIncrement()) {
                    chunks[k] = chunk(file, ranges.get(k), k, ranges.size(), known == null ? null : known.get(k).sha256(), counters);
                }
                return null;
            });
        }
        if (e.sha256() == null) {
            work.add(() -> whole(file, e.size(), counters));
        }
        String hashed = SideBySide.run("backup-chunk-", work);
        if (!before.equals(key(file))) {
            throw changed(file);
        }
        String sha256 = e.sha256() == null ? hashed : e.sha256();
        if (e.sha256() == null) {
            hashes.put(before, sha256, started);
        }
        List<BackupArtifact.Chunk> list = List.of(chunks);
        names.cut(sha256, list);
        counters.files.incrementAndGet();
        return new BackupArtifact.Chunked(sha256, e.size(), list);
    }

    /**
     * Chunk {@code k} of {@code n}: hashed from the file unless its digest is {@code known}, then sent unless the registry
     * has it. The registry checks what is sent against the digest, so a file changed since its chunk was hashed is
     * refused.
     */
    private BackupArtifact.Chunk chunk(Path file, Chunks.Range r, int k, int n, String known, BackupCounters counters) {
        counters.check();
        String what = file + " (chunk " + (k + 1) + " of " + n + ")";
        String sha256 = known != null ? known : hash(file, r, r.size(), counters);
        Digest digest = new Digest(sha256);
        if (!registry.hasBlob(repository, digest)) {
            try (InputStream in = counters.counted(range(file, r), counters.sent)) {
                registry.pushBlob(repository, digest, r.size(), in);
            } catch (IOException x) {
                throw new BackupBroken("cannot read " + what + ": " + x.getMessage(), x);
            } catch (BundleFailure x) {
                throw new BackupBroken("the upload of " + what + " failed: " + x.detail() + " (a file that changed after it"
                        + " was hashed is refused by the registry: back up a stopped module, or a copy a backup command made)", x);
            }
        }
        counters.bytes.addAndGet(r.size());
        return new BackupArtifact.Chunk(sha256, r.size());
    }

    /** The whole file's sha256 (hex), read from start to end; a file that is not {@code size} bytes now is refused. */
    private static String whole(Path file, long size, BackupCounters counters) {
        return hash(file, new Chunks.Range(0, size + 1), size, counters);   // a byte more: a file grown since is found
    }

    /** The sha256 (hex) of the bytes of {@code r} in {@code file}; refused unless they are {@code expected} bytes. */
    private static String hash(Path file, Chunks.Range r, long expected, BackupCounters counters) {
        MessageDigest sha = Digest.sha256();
        byte[] buffer = new byte[BUFFER];
        long n = 0;
        try (InputStream in = range(file, r)) {
            for (int got = in.read(buffer); got >= 0; got = in.read(buffer)) {
                counters.check();
                sha.update(buffer, 0, got);
                n += got;
            }
        } catch (IOException x) {
            throw new BackupBroken("cannot read " + file + ": " + x.getMessage(), x);
        }
        if (n != expected) {
            throw changed(file);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** The bytes of {@code r} in {@code file}, through a channel of their own, so two ranges are read side by side. */
    private static InputStream range(Path file, Chunks.Range r) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            channel.position(r.offset());
        } catch (IOException x) {
            channel.close();
            throw x;
        }
        return new FilterInputStream(Channels.newInputStream(channel)) {
            private long left = r.size();

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int n = super.read(b, off, (int) Math.min(len, left));
                if (n > 0) {
                    left -= n;
                }
                return n;
            }
        };
    }

    private static HashCache.Key key(Path file) {
        try {
            return HashCache.Key.of(file);
        } catch (IOException x) {
            throw new BackupBroken("cannot read " + file + ": " + x.getMessage(), x);
        }
    }

    private static BackupBroken changed(Path file) {
        return new BackupBroken("file " + file + " changed while it was sent: back up a stopped module, or a copy a backup"
                + " command made");
    }
}
