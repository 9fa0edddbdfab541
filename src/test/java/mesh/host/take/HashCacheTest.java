package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import mesh.model.VolumeManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HashCacheTest: a hash is reused only for the file exactly as it was, and never for one changed in the hash's second. */
class HashCacheTest {

    static final long NOW = 1_800_000_000_000_000_000L;

    static HashCache.Key key(long size, long mtime, long ctime) {
        return new HashCache.Key("/v/a", 1, 42, size, mtime, ctime);
    }

    @Test
    void aHashIsKeptForTheFileAsItWasAndForNothingElse() {
        HashCache c = new HashCache();
        c.put(key(10, 5, NOW - 5_000_000_000L), "aa", NOW);
        assertEquals("aa", c.get(key(10, 5, NOW - 5_000_000_000L)));
        assertNull(c.get(key(10, 5, NOW - 4_000_000_000L)), "a write changed its ctime");
        assertNull(c.get(key(11, 5, NOW - 5_000_000_000L)), "its size");
        assertNull(c.get(key(10, 6, NOW - 5_000_000_000L)), "its mtime");
        assertNull(c.get(new HashCache.Key("/v/a", 1, 43, 10, 5, NOW - 5_000_000_000L)), "another inode (renamed onto it)");
    }

    @Test
    void aFileChangedWithinASecondOfTheScanIsNotKept() {
        HashCache c = new HashCache();
        c.put(key(10, 5, NOW - 500_000_000L), "aa", NOW);
        assertEquals(0, c.size());
    }

    @Test
    void aHashOfContentTheAgentWroteItselfIsKeptHoweverNewTheFile() {
        HashCache c = new HashCache();
        c.written(key(10, 5, NOW), "aa");
        assertEquals("aa", c.get(key(10, 5, NOW)));
        assertNull(c.get(key(10, 5, NOW + 1)), "a later write changed its ctime");
    }

    @Test
    void theCacheIsBounded() {
        HashCache c = new HashCache();
        for (int i = 0; i < HashCache.MAX + 100; i++) {
            c.put(new HashCache.Key("/v/" + i, 1, i, 1, 1, 1), "h", NOW);
        }
        assertEquals(HashCache.MAX, c.size());
    }

    @Test
    void aScanWithTheCacheGivesTheSameManifestAndReadsAChangedFileAgain(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a"), "one");
        HashCache c = new HashCache();
        List<VolumeManifest.Entry> first = VolumeScan.scan(dir, c);
        assertEquals(VolumeScan.scan(dir), first);
        Files.writeString(dir.resolve("a"), "two");
        assertEquals(VolumeScan.scan(dir), VolumeScan.scan(dir, c), "a file written since is hashed again");
    }

    @Test
    void aScanLeavesTheHashOfALargeFileItHasNotHashedToItsCaller(@TempDir Path root) throws Exception {
        Files.writeString(root.resolve("small"), "0123456789");
        Files.writeString(root.resolve("large"), "0123456789a");
        HashCache c = new HashCache();
        List<VolumeManifest.Entry> first = VolumeScan.scan(root, c, 10);
        assertEquals(sha("0123456789"), entry(first, "small").sha256());
        assertNull(entry(first, "large").sha256(), "over 10 bytes and never hashed: left to the caller");
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 10_000);
        Files.setLastModifiedTime(root.resolve("large"), old);
        Thread.sleep(1100);   // past the racy second of the large file's ctime
        c.put(HashCache.Key.of(root.resolve("large")), "bb", VolumeScan.now());
        assertEquals("bb", entry(VolumeScan.scan(root, c, 10), "large").sha256(), "a hash the caller kept is used");
        assertNull(entry(VolumeScan.scan(root, null, 10), "large").sha256(), "no cache: still left to the caller");
        assertEquals(sha("0123456789a"), entry(VolumeScan.scan(root, null), "large").sha256(), "the take's scan reads every file");
    }

    private static String sha(String content) {
        return mesh.bundle.Digest.of(content.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hex();
    }

    private static VolumeManifest.Entry entry(List<VolumeManifest.Entry> entries, String path) {
        return entries.stream().filter(e -> e.path().equals(path)).findFirst().orElseThrow();
    }
}
