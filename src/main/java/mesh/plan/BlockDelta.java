package mesh.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * BlockDelta decides which ranges of a changed file a take's pass sends when the target already holds a copy of it:
 * the file is cut in blocks of {@link #blockFor} bytes, the target hashes each block of its copy, and the source sends
 * a block only when the target has no block there of the same length and hash; what the source holds past the
 * target's end (an appended tail) is always sent, and the target cuts its copy to the source's size (a truncation).
 * Pure: the hashes come in as numbers. A block hash that matches by chance where the bytes differ is not silent: the
 * verify after the fence compares every file's whole sha256 and the take then rolls back.
 *
 * @param ranges the ranges to send, adjacent blocks merged, in file order
 * @param size   the size the target's copy ends with (the source's)
 */
public record BlockDelta(List<Range> ranges, long size) {

    /** The smallest block: 1 MiB, the unit a take reads and hashes in. */
    public static final int MIN_BLOCK = 1 << 20;
    /** The most blocks a file is cut in, so a request's hashes stay small (64 Ki hashes, 512 KiB) whatever the file. */
    public static final int MAX_BLOCKS = 1 << 16;

    /** Range is {@code length} bytes of the source's file from {@code offset}. */
    public record Range(long offset, long length) {
    }

    /** The bytes the ranges hold. */
    public long bytes() {
        return ranges.stream().mapToLong(Range::length).sum();
    }

    /**
     * Whether a changed file goes by range rather than whole: the target holds it as a file of at least a block (a
     * smaller one costs less whole than a request) with the source's mode and owner (a range answer carries bytes and
     * the time, not the rest of what tar keeps).
     */
    public static boolean ranged(mesh.model.VolumeIndex.Entry source, mesh.model.VolumeIndex.Entry target) {
        return target != null && "file".equals(source.type()) && "file".equals(target.type()) && target.size() >= MIN_BLOCK
                && source.mode().equals(target.mode()) && source.uid() == target.uid() && source.gid() == target.gid();
    }

    /** The block size for a copy of {@code size} bytes: 1 MiB, or larger (a power of two) for a file of over 64 GiB. */
    public static int blockFor(long size) {
        long block = MIN_BLOCK;
        while (block < Integer.MAX_VALUE / 2 && (size + block - 1) / block > MAX_BLOCKS) {
            block <<= 1;
        }
        return (int) block;
    }

    /** The number of blocks a file of {@code size} bytes has. */
    public static int blocks(long size, int block) {
        return (int) ((size + block - 1) / block);
    }

    /** The length of block {@code i} of a file of {@code size} bytes (the last one may be short; 0 past the end). */
    public static long length(long size, int block, int i) {
        return Math.max(0, Math.min(block, size - (long) i * block));
    }

    /**
     * Whether the source sends its block {@code i} (of {@code sourceSize} bytes, hash {@code sourceHash}) to a target
     * whose copy is {@code targetSize} bytes with {@code targetHashes}: unless the target's block {@code i} has the same
     * length and hash.
     */
    public static boolean sends(int i, long sourceHash, long sourceSize, long[] targetHashes, long targetSize, int block) {
        if (i >= targetHashes.length || length(targetSize, block, i) != length(sourceSize, block, i)) {
            return true;
        }
        return targetHashes[i] != sourceHash;
    }

    /** The delta of a whole file: the source's hashes and size against the target's. */
    public static BlockDelta of(long[] sourceHashes, long sourceSize, long[] targetHashes, long targetSize, int block) {
        List<Range> ranges = new ArrayList<>();
        long from = -1;
        long to = -1;
        for (int i = 0; i < blocks(sourceSize, block); i++) {
            if (!sends(i, sourceHashes[i], sourceSize, targetHashes, targetSize, block)) {
                continue;
            }
            long offset = (long) i * block;
            if (offset != to) {
                if (from >= 0) {
                    ranges.add(new Range(from, to - from));
                }
                from = offset;
            }
            to = offset + length(sourceSize, block, i);
        }
        if (from >= 0) {
            ranges.add(new Range(from, to - from));
        }
        return new BlockDelta(List.copyOf(ranges), sourceSize);
    }
}
