package mesh.plan;

/**
 * ShaResume decides from where a file's whole sha256 is taken up again after a take's range pass wrote part of it, so
 * that the verify after the fence hashes only what changed, not the whole grown file (docs/take.md, "The verify's
 * hashes"). The agent that last hashed the file keeps SHA-256's running state at every {@code every} bytes (a
 * checkpoint; the state at 0 is the empty digest), and after it wrote blocks from {@code lowestChanged} on (or cut the
 * file there) the hash resumes from the last checkpoint at or before that offset: every byte before it is the same as
 * when the state was taken. Pure: offsets and counts in, an index out.
 */
public final class ShaResume {

    /** The densest checkpoints: one a MiB, the range pass's block. */
    public static final int MIN_EVERY = BlockDelta.MIN_BLOCK;
    /** The most checkpoints kept for one file (~200 bytes each: ~200 KB for a file of any size). */
    public static final int MAX_CHECKPOINTS = 1024;

    private ShaResume() {
    }

    /** The checkpoint spacing for a file of {@code size} bytes: 1 MiB, or the smallest power of two keeping ≤ 1024 of them. */
    public static int every(long size) {
        long every = MIN_EVERY;
        while (every < 1L << 30 && size / every >= MAX_CHECKPOINTS) {
            every <<= 1;
        }
        return (int) every;
    }

    /**
     * The index of the checkpoint to resume from: the last of the {@code kept} checkpoints (at 0, every, 2 × every …;
     * at least the one at 0) at or before {@code lowestChanged}, the first byte written or cut since they were taken.
     */
    public static int from(int kept, int every, long lowestChanged) {
        if (kept < 1 || every < MIN_EVERY || lowestChanged < 0) {
            throw new IllegalArgumentException("kept " + kept + ", every " + every + ", changed at " + lowestChanged);
        }
        return (int) Math.min(kept - 1, lowestChanged / every);
    }

    /**
     * The spacing after a file grew to {@code size} bytes, its checkpoints having been {@code every} apart: never
     * denser than before (the kept ones at multiples of the new spacing stay valid), sparser once there would be over
     * {@link #MAX_CHECKPOINTS}.
     */
    public static int respaced(int every, long size) {
        return Math.max(every, every(size));
    }

    /** Whether the checkpoint {@code i} of a spacing {@code every} is kept at the spacing {@code to} (a multiple of it). */
    public static boolean keeps(int i, int every, int to) {
        return ((long) i * every) % to == 0;
    }
}
