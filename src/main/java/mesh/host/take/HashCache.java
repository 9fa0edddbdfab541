package mesh.host.take;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * HashCache keeps the sha256 of files a manifest hashed, keyed by what any write through the file system changes:
 * the file's device, inode, size, mtime and ctime (ns). A take's verify after the fence then reads again only the
 * files written since the manifest made before the fence, while the module ran (docs/take.md, "The verify's
 * hashes"). ctime cannot be set by a process: a write, a chmod, a rename onto the path all change it. A hash is
 * kept only for a file whose ctime was more than {@link #RACY_NS} older than the scan that hashed it, so a write in
 * the same clock tick as the hash can never hide behind an equal ctime (git's "racily clean" rule). Bounded: the
 * least recently used entries go first; an entry costs ~200 bytes, so {@link #MAX} is about 4 MB of the agent's heap.
 */
public final class HashCache {

    /** The most files kept. */
    static final int MAX = 20_000;
    /** How much older than the scan a file's ctime must be for its hash to be kept. */
    static final long RACY_NS = 1_000_000_000L;

    /** Key is a file as the file system last changed it. */
    public record Key(String path, long dev, long ino, long size, long mtimeNs, long ctimeNs) {

        /** The key of the file {@code p} as it is now ({@code attrs}: its attributes, read without following a link). */
        static Key of(Path p, BasicFileAttributes attrs) throws IOException {
            Map<String, Object> unix = Files.readAttributes(p, "unix:dev,ino,ctime", LinkOption.NOFOLLOW_LINKS);
            return new Key(p.toString(), (Long) unix.get("dev"), (Long) unix.get("ino"), attrs.size(),
                    attrs.lastModifiedTime().to(TimeUnit.NANOSECONDS), ((FileTime) unix.get("ctime")).to(TimeUnit.NANOSECONDS));
        }

        /** The key of the file {@code p} as it is now. */
        public static Key of(Path p) throws IOException {
            return of(p, Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        }
    }

    private final Map<Key, String> hashes = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, String> eldest) {
            return size() > MAX;
        }
    };

    /** The kept sha256 of the file as {@code key} describes it, or null. */
    public synchronized String get(Key key) {
        return hashes.get(key);
    }

    /** Keeps {@code sha256} unless the file changed too close to {@code scanStartNs} (epoch ns) for its ctime to prove anything. */
    public synchronized void put(Key key, String sha256, long scanStartNs) {
        if (key.ctimeNs() < scanStartNs - RACY_NS) {
            hashes.put(key, sha256);
        }
    }

    /**
     * Keeps {@code sha256} of content this agent wrote itself and closed, hashed as it was written, into a folder
     * nothing else writes (a restore's, before its module starts): no write can be racing the hash, so the racy rule
     * above does not apply. A later write changes the ctime, and the file is read again.
     */
    public synchronized void written(Key key, String sha256) {
        hashes.put(key, sha256);
    }

    /**
     * Keeps {@code sha256} of a file read whole while its module was fenced here (a take's range answer after the
     * fence, {@link RangePublisher}), its key the same before and after the read: nothing of the module runs, so no
     * write of it can race the read, and the racy rule above does not apply. A later write changes the ctime.
     */
    public synchronized void fenced(Key key, String sha256) {
        hashes.put(key, sha256);
    }

    synchronized int size() {
        return hashes.size();
    }
}
