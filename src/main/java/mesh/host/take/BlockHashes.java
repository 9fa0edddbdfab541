package mesh.host.take;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import mesh.plan.BlockDelta;

/**
 * BlockHashes is the per-block hash both sides of a take's range delta take ({@link BlockDelta}): CRC32C and CRC32 of
 * the block side by side in 64 bits. Both run as CPU instructions in the JDK (several GB/s, faster than the disk), where
 * sha256 would make the hashing, not the bytes sent, the delta's cost after the fence. They only find the blocks to
 * send: a block they call equal by chance is caught by the verify's whole-file sha256, and the take then rolls back.
 */
public final class BlockHashes {

    private BlockHashes() {
    }

    /** The hash of the bytes left in {@code block} (its position is kept). */
    public static long of(ByteBuffer block) {
        CRC32C c = new CRC32C();
        c.update(block.duplicate());
        CRC32 d = new CRC32();
        d.update(block.duplicate());
        return c.getValue() << 32 | d.getValue();
    }

    /** The hashes of {@code file}'s blocks of {@code block} bytes, read once, up to {@code size} bytes (its size when hashed). */
    public static long[] of(Path file, int block, long size) throws IOException {
        long[] hashes = new long[BlockDelta.blocks(size, block)];
        ByteBuffer buffer = ByteBuffer.allocateDirect(block);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (int i = 0; i < hashes.length; i++) {
                buffer.clear().limit((int) BlockDelta.length(size, block, i));
                readFully(ch, buffer, (long) i * block);
                hashes[i] = of(buffer.flip());
            }
        }
        return hashes;
    }

    /**
     * Reads into {@code buffer} from {@code at} until it is full or the file ends (a file that shrank while read: the
     * hash is then of fewer bytes, and the block is sent).
     */
    static void readFully(FileChannel ch, ByteBuffer buffer, long at) throws IOException {
        long pos = at;
        while (buffer.hasRemaining()) {
            int n = ch.read(buffer, pos);
            if (n < 0) {
                return;
            }
            pos += n;
        }
    }
}
