package mesh.host.take;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import mesh.model.VolumeManifest.Entry;

/**
 * VolumeScan reads a volume's folder into manifest entries: every file, folder and link under it (links not
 * followed), with its permission bits, numeric owner, size and sha256 (files), link target (links) and
 * extended attributes of the {@code user.} namespace (the one Java reads; security and ACL attributes are
 * copied by tar but not compared). The I/O half of {@link ManifestForm}.
 */
public final class VolumeScan {

    private static final int BUFFER = 1 << 20;

    private VolumeScan() {
    }

    /** The entries of everything under {@code root}, the root itself as ".", sorted by path. */
    public static List<Entry> scan(Path root) {
        return scan(root, null);
    }

    /**
     * As above, taking a file's sha256 from {@code cache} when the file is unchanged since it was hashed (same
     * device, inode, size, mtime and ctime), and keeping what it hashes there ({@link HashCache}); null: every
     * file is read.
     */
    public static List<Entry> scan(Path root, HashCache cache) {
        return scan(root, cache, Long.MAX_VALUE);
    }

    /**
     * As above, except that a file over {@code hashUpTo} bytes whose hash {@code cache} does not hold is not read: its
     * entry's sha256 is null, for the caller to hash as it reads the file anyway (a backup, as it sends it).
     */
    public static List<Entry> scan(Path root, HashCache cache, long hashUpTo) {
        return scan(root, cache, hashUpTo, null);
    }

    /**
     * As above, keeping in {@code points} the SHA-256 checkpoints of each large file it hashes ({@link Checkpoints}: a
     * take's source then hashes after the fence only what changed); null: none kept.
     */
    static List<Entry> scan(Path root, HashCache cache, long hashUpTo, Checkpoints points) {
        long started = now();
        Set<Long> mapped = cache == null ? Set.of() : SharedWrites.now();   // before anything is hashed
        List<Entry> entries = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    entries.add(entry(root, dir, attrs, buffer, cache, started, hashUpTo, points, mapped));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    entries.add(entry(root, file, attrs, buffer, cache, started, hashUpTo, points, mapped));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + root + ": " + e.getMessage(), e);
        }
        return ManifestForm.sorted(entries);
    }

    /**
     * The index of everything under {@code root} (lstat only, no file read, links not followed), the root as ".",
     * sorted by path, with the clock when the walk began: what a take's pass compares (mesh.plan.VolumeDelta).
     */
    public static mesh.model.VolumeIndex index(String volume, Path root) {
        return index(volume, root, Set.of());
    }

    /**
     * As above, marking {@code shared} each file whose inode is among {@code shared}: mapped shared and writable by some
     * process during the take ({@link SharedWrites}), so its times do not prove it unchanged.
     */
    public static mesh.model.VolumeIndex index(String volume, Path root, Set<Long> shared) {
        long now = System.currentTimeMillis();
        List<mesh.model.VolumeIndex.Entry> entries = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    indexed(root, dir, attrs, entries, shared);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    indexed(root, file, attrs, entries, shared);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof java.nio.file.NoSuchFileException) {
                        return FileVisitResult.CONTINUE;   // gone while walked (the module runs): the next pass sees it so
                    }
                    throw e;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + root + ": " + e.getMessage(), e);
        }
        entries.sort(java.util.Comparator.comparing(mesh.model.VolumeIndex.Entry::path));
        return new mesh.model.VolumeIndex(volume, now, entries);
    }

    private static void indexed(Path root, Path p, BasicFileAttributes attrs, List<mesh.model.VolumeIndex.Entry> entries,
                                Set<Long> shared) throws IOException {
        String rel = root.equals(p) ? "." : root.relativize(p).toString();
        Map<String, Object> unix;
        String link = null;
        try {
            unix = Files.readAttributes(p, shared.isEmpty() ? "unix:mode,uid,gid" : "unix:mode,uid,gid,ino", LinkOption.NOFOLLOW_LINKS);
            if (attrs.isSymbolicLink()) {
                link = Files.readSymbolicLink(p).toString();
            }
        } catch (java.nio.file.NoSuchFileException gone) {
            return;
        }
        String type = attrs.isSymbolicLink() ? "link" : attrs.isDirectory() ? "dir" : attrs.isRegularFile() ? "file" : "other";
        entries.add(new mesh.model.VolumeIndex.Entry(rel, type, attrs.isRegularFile() ? attrs.size() : 0,
                attrs.lastModifiedTime().toMillis(), String.format("%04o", ((Integer) unix.get("mode")) & 07777),
                (Integer) unix.get("uid"), (Integer) unix.get("gid"), link,
                attrs.isRegularFile() && !shared.isEmpty() && shared.contains((Long) unix.get("ino"))));
    }

    /** Totals are a folder's bytes (of its files) and its number of files. */
    public record Totals(long bytes, long files) {
    }

    /** The bytes and files under {@code root}, without reading the files (cheap, for a listing). */
    public static Totals totals(Path root) {
        long[] t = new long[2];
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        t[0] += attrs.size();
                        t[1]++;
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + root + ": " + e.getMessage(), e);
        }
        return new Totals(t[0], t[1]);
    }

    /** The clock in nanoseconds since the epoch, as {@link HashCache}'s racy rule compares it with ctimes. */
    public static long now() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private static Entry entry(Path root, Path p, BasicFileAttributes attrs, ByteBuffer buffer, HashCache cache, long started,
                               long hashUpTo, Checkpoints points, Set<Long> mapped) throws IOException {
        String rel = root.equals(p) ? "." : root.relativize(p).toString();
        Map<String, Object> unix = Files.readAttributes(p, "unix:mode,uid,gid", LinkOption.NOFOLLOW_LINKS);
        String mode = String.format("%04o", ((Integer) unix.get("mode")) & 07777);
        int uid = (Integer) unix.get("uid");
        int gid = (Integer) unix.get("gid");
        if (attrs.isSymbolicLink()) {
            return new Entry(rel, "link", 0, mode, uid, gid, Files.readSymbolicLink(p).toString(), null, Map.of());
        }
        Map<String, String> xattrs = attrs.isRegularFile() || attrs.isDirectory() ? xattrs(p) : Map.of();
        if (attrs.isDirectory()) {
            return new Entry(rel, "dir", 0, mode, uid, gid, null, null, xattrs);
        }
        if (attrs.isRegularFile()) {
            String sha = attrs.size() > hashUpTo ? (cache == null ? null : cache.get(HashCache.Key.of(p, attrs)))
                    : cached(p, attrs, buffer, cache, started, points, mapped);
            return new Entry(rel, "file", attrs.size(), mode, uid, gid, null, sha, xattrs);
        }
        return new Entry(rel, "other", 0, mode, uid, gid, null, null, Map.of());
    }

    /**
     * The file's sha256, from the cache when it is unchanged since it was hashed; what is hashed is kept there, unless
     * a process maps the file shared and writable ({@code mapped}, {@link SharedWrites}): its key cannot prove it unchanged.
     */
    private static String cached(Path p, BasicFileAttributes attrs, ByteBuffer buffer, HashCache cache, long started,
                                 Checkpoints points, Set<Long> mapped) throws IOException {
        if (cache == null) {
            return sha256(p, buffer);
        }
        HashCache.Key key = HashCache.Key.of(p, attrs);
        String kept = cache.get(key);
        if (kept != null) {
            return kept;
        }
        String sha = points != null && attrs.size() >= mesh.plan.ShaResume.MIN_EVERY ? points.hash(p) : sha256(p, buffer);
        if (!mapped.contains(key.ino())) {
            cache.put(key, sha, started);
        }
        return sha;
    }

    /** The file's {@code user.} extended attributes, name (with its prefix) to base64 value. */
    private static Map<String, String> xattrs(Path p) throws IOException {
        UserDefinedFileAttributeView view = Files.getFileAttributeView(p, UserDefinedFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return Map.of();
        }
        Map<String, String> xattrs = new TreeMap<>();
        for (String name : view.list()) {
            ByteBuffer value = ByteBuffer.allocate(view.size(name));
            view.read(name, value);
            value.flip();
            byte[] bytes = new byte[value.remaining()];
            value.get(bytes);
            xattrs.put("user." + name, Base64.getEncoder().encodeToString(bytes));
        }
        return xattrs;
    }

    private static String sha256(Path p, ByteBuffer buffer) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-256", e);
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            buffer.clear();
            while (ch.read(buffer) >= 0) {
                buffer.flip();
                digest.update(buffer);
                buffer.clear();
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
