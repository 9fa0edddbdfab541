package mesh.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * RangeScan decides how a take's source reads a file for a range answer (docs/take.md, "Deltas by range"): cut in
 * pieces that several threads hash side by side (the block hashes the target's copy is compared with, and each kept
 * interval's fingerprint against the one its warm manifest kept), and in which order the pieces are read and sent. The
 * pieces wholly past the target's copy (an appended tail: every block of them is sent, whatever its hash) come first, so
 * their bytes cross while the rest is hashed; then the others, in file order. A piece that spans a kept interval spans
 * exactly one (its fingerprint is compared whole); past the kept intervals a piece is {@link #PIECE} bytes. And when the
 * source's SHA-256 may resume ({@link #resumeAt}): at the first interval, in file order, whose fingerprint differs, or
 * past the last kept one; not before every interval before it is known unchanged. Pure: sizes and counts in.
 */
public final class RangeScan {

    /** The length of a piece where no kept interval decides it: a few blocks, so threads share the work out in few steps. */
    public static final int PIECE = 8 << 20;

    /** What is known of a kept interval's fingerprint while the pieces are hashed: not yet, the same, or differing. */
    public static final byte UNKNOWN = 0;
    public static final byte SAME = 1;
    public static final byte DIFFERS = 2;

    private RangeScan() {
    }

    /**
     * Piece is the blocks {@code [first, first + count)} of the file; {@code hashed}: whether any of them is one the
     * target holds a block at (its hash decides whether it is sent; the others are sent whatever it is);
     * {@code interval}: the kept interval it spans exactly, whose fingerprint is compared (-1: none).
     */
    public record Piece(int first, int count, boolean hashed, int interval) {

        /** Whether a thread has anything to hash in it (else its blocks are only read when sent). */
        public boolean work() {
            return hashed || interval >= 0;
        }

        /** Whether every block of it is sent: it lies wholly past the target's copy. */
        boolean tail() {
            return !hashed;
        }
    }

    /**
     * The pieces of a file of {@code size} bytes in blocks of {@code block}, against a target copy of {@code targetBlocks}
     * blocks, with {@code kept} whole intervals of {@code every} bytes fingerprinted (0: none), in the order they are read
     * and sent: the tail first, then the rest, each in file order. Intervals whose spacing is not a whole number of blocks
     * are not used (none are kept then: SHA-256 reads the file from its start).
     */
    public static List<Piece> pieces(long size, int block, int targetBlocks, int every, int kept) {
        int blocks = BlockDelta.blocks(size, block);
        int keptUsable = usable(block, every, kept) ? kept : 0;
        int perInterval = keptUsable > 0 ? every / block : 0;
        int perPiece = Math.max(1, PIECE / block);
        List<Piece> all = new ArrayList<>();
        int first = 0;
        int interval = 0;
        while (first < blocks) {
            boolean inKept = interval < keptUsable && (long) (interval + 1) * every <= size;   // whole in the file
            int count = inKept ? perInterval : Math.min(perPiece, blocks - first);
            all.add(new Piece(first, count, first < targetBlocks, inKept ? interval : -1));
            first += count;
            interval += inKept ? 1 : 0;
            if (!inKept) {
                interval = Integer.MAX_VALUE;   // past the kept intervals (or the file ends inside one): none after
            }
        }
        List<Piece> ordered = new ArrayList<>(all.stream().filter(Piece::tail).toList());
        all.stream().filter(p -> !p.tail()).forEach(ordered::add);
        return List.copyOf(ordered);
    }

    /** The intervals of {@code pieces} whose fingerprint is compared: those SHA-256 may skip. */
    public static int intervals(List<Piece> pieces) {
        return (int) pieces.stream().filter(p -> p.interval() >= 0).count();
    }

    /** Whether kept intervals of {@code every} bytes can be compared piece by piece with blocks of {@code block}. */
    static boolean usable(int block, int every, int kept) {
        return kept > 0 && every >= block && every % block == 0;
    }

    /**
     * The interval from whose checkpoint SHA-256 resumes, once known: the first, in file order, that is not
     * {@link #SAME} when every one before it is, {@code states.length} when all are the same; -1 while an interval before
     * the first that differs is still {@link #UNKNOWN}.
     */
    public static int resumeAt(byte[] states) {
        for (int i = 0; i < states.length; i++) {
            if (states[i] == DIFFERS) {
                return i;
            }
            if (states[i] != SAME) {
                return -1;
            }
        }
        return states.length;
    }
}
