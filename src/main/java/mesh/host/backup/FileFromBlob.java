package mesh.host.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import mesh.bundle.Digest;
import mesh.host.take.HashCache;
import mesh.model.VolumeManifest;

/**
 * FileFromBlob writes a restore's large file from its blob (a chunked one: {@link ChunkedWrite}) straight into the file
 * tar made for it (empty, with its owner, mode and user xattrs already
 * set), not through tar's pipe: on this machine's test bed a 2 GB file took
 * 10–26 s through the pipe, tar reading it 10 KiB at a time, against 4 s fetched to nowhere (docs/benchmarks.md,
 * "scripts/bench/backup"). Two threads share the work: one reads the blob from the registry a buffer at a time, the
 * caller hashes each buffer and writes it, so the fetch and the hash run side by side. Exactly {@link #BUFFERS}
 * buffers of {@link #BUFFER} bytes go round between them (a full file waits for the reader to hand one back): what
 * is held stays at 4 MiB however large the file. A root agent writing into the file keeps its setuid bits and user
 * xattrs (CAP_FSETID); the backup's manifest holds no security xattrs for the write to clear.
 * Written by hand: a two-stage pipe with recycled buffers is a few lines over java.util.concurrent.
 */
final class FileFromBlob {

    /** The size of one buffer. */
    static final int BUFFER = 1024 * 1024;
    /** How many buffers go round: one being read into, one being hashed and written, two waiting. */
    static final int BUFFERS = 4;

    private FileFromBlob() {
    }

    /**
     * Writes {@code e}'s content from {@code blob} into {@code file}, hashed as written; the file's key as written,
     * for the check's scan not to read it again. A content that is not the manifest's (another sha256, more or fewer
     * bytes) stops the restore naming {@code what}; the blob is closed either way.
     */
    static HashCache.Key write(InputStream blob, Path file, VolumeManifest.Entry e, String what, BackupCounters counters)
            throws IOException {
        MessageDigest sha = Digest.sha256();
        BlockingQueue<Chunk> full = new ArrayBlockingQueue<>(BUFFERS + 1);
        BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(BUFFERS);
        for (int i = 0; i < BUFFERS; i++) {
            free.add(new byte[BUFFER]);
        }
        Thread reader = RegistryThreads.start("restore-read", () -> read(blob, e.size() + 1, free, full));
        long n = 0;
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            while (true) {
                Chunk c = full.take();
                if (c.failure() instanceof IOException x) {   // the registry closed the blob early ("Premature EOF"), say
                    throw new BackupBroken(what + ": its content could not be read from the registry to its end ("
                            + x.getMessage() + ")", x);
                }
                if (c.failure() instanceof RuntimeException x) {
                    throw x;
                }
                if (c.buffer() == null) {
                    break;
                }
                counters.check();
                sha.update(c.buffer(), 0, c.length());
                ByteBuffer b = ByteBuffer.wrap(c.buffer(), 0, (int) Math.min(c.length(), Math.max(0, e.size() - n)));
                while (b.hasRemaining()) {
                    out.write(b);
                }
                n += c.length();
                counters.bytes.addAndGet(c.length());
                free.put(c.buffer());
            }
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new BackupBroken("interrupted while " + what + " was written", x);
        } finally {
            reader.interrupt();   // first: a reader waiting for a free buffer is let go; one blocked on the socket by the close
            try {
                blob.close();
            } catch (IOException x) {
                // the content was read, or the restore fails anyway
            }
        }
        BackupBroken.unlessTheBackups(what, sha, n, e);
        return HashCache.Key.of(file);
    }

    /** One buffer read: {@code length} bytes of {@code buffer}; a null buffer ends the blob, a failure ends the read. */
    private record Chunk(byte[] buffer, int length, Exception failure) {
    }

    /** The reader's loop: fills free buffers from the blob, at most {@code most} bytes, and hands them on in order. */
    private static void read(InputStream blob, long most, BlockingQueue<byte[]> free, BlockingQueue<Chunk> full) {
        try {
            long left = most;
            while (left > 0) {
                byte[] b = free.take();
                int got = blob.readNBytes(b, 0, (int) Math.min(b.length, left));
                if (got == 0) {
                    break;
                }
                full.put(new Chunk(b, got, null));
                left -= got;
            }
            full.put(new Chunk(null, 0, null));
        } catch (InterruptedException x) {
            // the writer stopped
        } catch (IOException | RuntimeException x) {
            full.offer(new Chunk(null, 0, x));   // room is left for it: at most BUFFERS chunks are ever queued
        }
    }

    /**
     * The file tar made for the large file {@code rel} of the manifest under {@code folder}: a regular, empty file,
     * reached through no link (a link in the backup's tree must not lead the write elsewhere); null if it is not that.
     */
    static Path madeByTar(Path folder, String rel) throws IOException {
        Path relative = Path.of(rel);
        if (relative.isAbsolute() || !relative.normalize().equals(relative) || relative.startsWith("..")) {
            return null;
        }
        Path file = folder.resolve(relative);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) != 0
                || !file.toRealPath().equals(folder.toRealPath().resolve(relative))) {
            return null;
        }
        return file;
    }
}
