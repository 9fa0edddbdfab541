package mesh.host.backup;

import java.util.ArrayList;
import java.util.List;

/**
 * Chunks decides how a large file's content is cut into blobs (docs/backup.md, "Chunks"). The registry hashes each
 * upload on one core, so one stream cannot go faster than that core: `curl` PUTting a 2 GB file in one stream took
 * 0.69× the time of `tar | zstd` on the test bed. A file over {@link #SIZE} is therefore stored as chunks of
 * {@link #SIZE} bytes (the last shorter), each a blob of its own, and a few are sent at once ({@link ChunkedUpload}) and restored at once ({@link ChunkedWrite}).
 * A file of at most {@link #SIZE} stays one blob: its one chunk is the whole file, named by the file's own sha256, as
 * before chunks. The cut is fixed, by offset: a chunk's bytes depend only on the file's, so an unchanged chunk of a
 * changed file keeps its digest and is not sent again. Pure: a size in, the ranges out.
 */
final class Chunks {

    /** The size of a chunk: 64 MiB, so a 2 GB file is 32 blobs and a chunk in flight is a fraction of a second's work. */
    static final long SIZE = 64L * 1024 * 1024;

    /** Range is one chunk of a file: where it begins and how many bytes it holds. */
    record Range(long offset, long size) {
    }

    private Chunks() {
    }

    /** Whether a file of {@code size} bytes is stored as chunks (more than one), not as one blob. */
    static boolean chunked(long size) {
        return size > SIZE;
    }

    /** The chunks of a file of {@code size} bytes, in order: {@link #SIZE} each, the last the rest (none when empty). */
    static List<Range> cut(long size) {
        List<Range> ranges = new ArrayList<>();
        for (long at = 0; at < size; at += SIZE) {
            ranges.add(new Range(at, Math.min(SIZE, size - at)));
        }
        return List.copyOf(ranges);
    }
}
