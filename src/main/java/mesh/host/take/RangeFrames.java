package mesh.host.take;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * RangeFrames is the wire form of a range answer ({@link RangePublisher}), big-endian: a data frame is its offset
 * (8 bytes, from 0), its length (4) and the bytes; an alive frame is the offset -2 alone (the source is still reading
 * blocks the target has); the end frame is -1 and the file's size (8) the target cuts its copy to. A stream without
 * its end frame is broken, never a short complete one.
 */
public final class RangeFrames {

    static final long ALIVE = -2;
    static final long END = -1;

    private RangeFrames() {
    }

    /** Frame is one frame as read: data (offset from 0, its bytes), alive, or the end with the size in {@code offset}'s place. */
    public record Frame(long offset, byte[] bytes, boolean end) {

        boolean alive() {
            return !end && offset == ALIVE;
        }
    }

    /** A data frame of the bytes left in {@code bytes}, at {@code offset}. */
    static byte[] data(long offset, ByteBuffer bytes) {
        ByteBuffer frame = ByteBuffer.allocate(12 + bytes.remaining());
        frame.putLong(offset).putInt(bytes.remaining()).put(bytes.duplicate());
        return frame.array();
    }

    static byte[] alive() {
        return ByteBuffer.allocate(8).putLong(ALIVE).array();
    }

    static byte[] end(long size) {
        return ByteBuffer.allocate(16).putLong(END).putLong(size).array();
    }

    /**
     * The next frame of {@code in}, its data read into {@code into} when it fits (a block's buffer, reused); a frame
     * larger than {@code max} bytes is refused (a broken or foreign stream never makes the target allocate).
     */
    static Frame read(DataInputStream in, byte[] into, int max) throws IOException {
        long offset;
        try {
            offset = in.readLong();
        } catch (EOFException e) {
            throw new IOException("the ranges broke off before their end");
        }
        if (offset == END) {
            return new Frame(in.readLong(), null, true);
        }
        if (offset == ALIVE) {
            return new Frame(ALIVE, null, false);
        }
        int length = in.readInt();
        if (offset < 0 || length < 0 || length > max) {
            throw new IOException("a range frame at " + offset + " of " + length + " bytes is not one this agent asked for");
        }
        byte[] bytes = length <= into.length ? into : new byte[length];
        in.readFully(bytes, 0, length);
        return new Frame(offset, length == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, length), false);
    }
}
