package mesh.host.take;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * BlockCache keeps, on a take's target, the block hashes ({@link BlockHashes}) of the copies its range passes wrote,
 * keyed as {@link HashCache} keys a file (device, inode, size, mtime, ctime): the next pass, and the delta after the
 * fence, then asks the source for ranges without reading its copy again. Only this agent writes a take's copy while it
 * is made (the module does not run here), and the hashes are those of the blocks as written: a block it kept and a
 * block it received. Bounded: at most {@link #MAX_HASHES} hashes (8 MB), the least recently used files go first. Beside
 * them it holds the copies' sha256 checkpoints ({@link ShaStates}) and the agent's {@link HashCache}, where a range pass
 * leaves the whole sha256 of each file it wrote for the verify.
 */
final class BlockCache {

    static final int MAX_HASHES = 1 << 20;

    private final ShaStates shas = new ShaStates();
    private final HashCache sums;

    BlockCache(HashCache sums) {
        this.sums = sums;
    }

    ShaStates shas() {
        return shas;
    }

    HashCache sums() {
        return sums;
    }

    private record Kept(HashCache.Key key, int block, long[] hashes) {
    }

    private final Map<String, Kept> kept = new LinkedHashMap<>(16, 0.75f, true);
    private long held;

    /** The kept hashes of {@code file} in blocks of {@code block} bytes if it is unchanged since; else null. */
    long[] get(Path file, int block) {
        HashCache.Key now;
        try {
            now = HashCache.Key.of(file);
        } catch (IOException e) {
            return null;
        }
        synchronized (this) {
            Kept k = kept.get(file.toString());
            return k != null && k.block() == block && k.key().equals(now) ? k.hashes().clone() : null;
        }
    }

    /** Keeps {@code hashes} of {@code file} as it is now (after its last write and its time were set). */
    void put(Path file, int block, long[] hashes) {
        HashCache.Key now;
        try {
            now = HashCache.Key.of(file);
        } catch (IOException e) {
            return;
        }
        synchronized (this) {
            Kept old = kept.put(file.toString(), new Kept(now, block, hashes.clone()));
            held += hashes.length - (old == null ? 0 : old.hashes().length);
            var eldest = kept.entrySet().iterator();
            while (held > MAX_HASHES && eldest.hasNext()) {
                held -= eldest.next().getValue().hashes().length;
                eldest.remove();
            }
        }
    }
}
