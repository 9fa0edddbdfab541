package mesh.host.take;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import mesh.plan.ShaResume;

/**
 * ShaStates keeps, on a take's target, SHA-256's running state at checkpoints of the copies its range passes wrote
 * ({@link ShaResume}), keyed as {@link HashCache} keys a file: after the next range pass wrote blocks from some offset
 * on, the file's whole sha256 is taken up again from the last checkpoint before that offset and only the rest is read
 * ({@link #rehash}), so the verify after the fence hashes the appended tail, not the whole grown file. Only this agent
 * writes a take's copy while it is made (the module does not run here), and a record serves only while the file's key
 * is the one it was kept with: any other write (a byte changed by hand) changes the ctime, and the file is hashed whole.
 * Bounded: a state is ~200 bytes and at most {@link #MAX_STATES} are kept (~1.7 MB of the agent's heap), the least
 * recently used files going first.
 */
final class ShaStates {

    static final int MAX_STATES = 8192;
    private static final int READ = 1 << 20;

    /** Kept is a file's checkpoints, {@code every} bytes apart, valid for the file as {@code key} describes it. */
    record Kept(HashCache.Key key, int every, List<MessageDigest> states) {
    }

    /** Hashed is a file's whole sha256 (hex), its checkpoints, and the bytes read to get it. */
    record Hashed(String sha256, Kept kept, long read) {
    }

    private final KeptStates<Kept> kept = new KeptStates<>(k -> k.states().size(), MAX_STATES);

    /** The checkpoints of {@code file} if they were kept for it exactly as {@code now} describes it; else null. */
    Kept get(Path file, HashCache.Key now) {
        Kept k = kept.get(file);
        return k != null && k.key().equals(now) ? k : null;
    }

    /** Keeps {@code k} for its file, dropping the least recently used files past {@link #MAX_STATES} states. */
    void put(Path file, Kept k) {
        kept.put(file, k);
    }

    /** Forgets {@code file}'s checkpoints (its copy was written some other way). */
    void drop(Path file) {
        kept.remove(file);
    }

    /**
     * The whole sha256 of {@code file} (now {@code size} bytes, unchanged before {@code lowestChanged} since {@code
     * before}'s checkpoints were taken; {@code before} null: hashed from 0), reading only from the checkpoint ShaResume
     * picks to the end, and its checkpoints for the next pass ({@code key}: the file as it is now).
     */
    static Hashed rehash(Path file, long size, Kept before, long lowestChanged, HashCache.Key key) throws IOException {
        int every = ShaResume.respaced(before == null ? ShaResume.every(size) : before.every(), size);
        List<MessageDigest> states = new ArrayList<>();
        MessageDigest digest;
        long at;
        if (before == null) {
            digest = newDigest();
            at = 0;
        } else {
            int from = ShaResume.from(before.states().size(), before.every(), Math.min(lowestChanged, size));
            for (int i = 0; i <= from; i++) {
                if (ShaResume.keeps(i, before.every(), every)) {
                    states.add(before.states().get(i));
                }
            }
            at = (long) from * before.every();
            digest = copy(before.states().get(from));
            if (at % every != 0) {   // respaced: hash from the last kept checkpoint instead
                at = (long) (states.size() - 1) * every;
                digest = copy(states.getLast());
            }
            states.removeLast();   // taken again below, at its offset
        }
        long start = at;
        ByteBuffer buffer = ByteBuffer.allocateDirect(READ);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (true) {
                if (at % every == 0) {
                    states.add(copy(digest));
                }
                long next = Math.min(size, (at / every + 1) * every);
                if (at >= size) {
                    break;
                }
                buffer.clear().limit((int) Math.min(READ, next - at));
                int n = ch.read(buffer, at);
                if (n < 0) {
                    throw new IOException(file + " ended at " + at + " bytes, not " + size);
                }
                digest.update(buffer.flip());
                at += n;
            }
        }
        return new Hashed(HexFormat.of().formatHex(digest.digest()), new Kept(key, every, List.copyOf(states)), at - start);
    }

    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-256", e);
        }
    }

    static MessageDigest copy(MessageDigest d) {
        try {
            return (MessageDigest) d.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("this Java's SHA-256 cannot be cloned", e);
        }
    }
}
