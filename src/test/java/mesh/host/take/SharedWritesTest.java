package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import mesh.model.VolumeManifest.Entry;
import org.junit.jupiter.api.Test;

/**
 * SharedWritesTest: the inodes of files some process maps shared and writable, read from /proc, and why a take's
 * hash cache must not keep their hashes: a store through such a mapping into a page already dirty changes neither
 * mtime nor ctime (the kernel updates them on the first write fault after the page was written back), so a hash kept
 * under the file's key would outlive the bytes it was taken over. Shown on this machine's kernel and file system:
 * the folder is under target/, not /tmp (a tmpfs keeps no times of mapped writes at all).
 */
class SharedWritesTest {

    @Test
    void onlyMappingsBothSharedAndWritableCount() {
        String maps = """
                55d1c0a00000-55d1c0a21000 r--p 00000000 fe:01 131                        /usr/bin/cat
                7f1e2c000000-7f1e2c100000 rw-s 00000000 fe:01 5242881                    /var/lib/mesh/volumes/db/data.mdb
                7f1e2d000000-7f1e2d100000 r--s 00000000 fe:01 5242882                    /var/lib/mesh/volumes/db/lock.mdb
                7f1e2e000000-7f1e2e100000 rw-p 00000000 fe:01 5242883                    /var/lib/mesh/volumes/db/private
                7f1e2f000000-7f1e2f100000 rw-s 00000000 00:01 4096                       /dev/zero (deleted)
                7f1e30000000-7f1e30100000 rw-s 00000000 fe:01 5242884                    /data/a file with spaces (deleted)
                7ffd1c3f0000-7ffd1c411000 rw-p 00000000 00:00 0                          [stack]
                not a line of maps
                """;
        assertEquals(Set.of(5242881L, 4096L, 5242884L), SharedWrites.inodes(maps));
    }

    @Test
    void aFileThisProcessMapsSharedAndWritableIsFound() throws IOException {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "shared-writes");
        Path file = Files.write(dir.resolve("data"), new byte[8192]);
        long ino = (Long) Files.getAttribute(file, "unix:ino");
        assertFalse(SharedWrites.now().contains(ino), "not mapped yet");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8192);
            map.put(0, (byte) 1);
            assertTrue(SharedWrites.now().contains(ino), "mapped shared and writable by this JVM");
        }
    }

    @Test
    void aTakesIndexMarksTheFilesMappedSharedAndWritable() throws IOException {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "shared-writes");
        Path file = Files.write(dir.resolve("data.mdb"), new byte[8192]);
        Files.write(dir.resolve("plain"), new byte[10]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.map(FileChannel.MapMode.READ_WRITE, 0, 8192).put(0, (byte) 1);
            List<String> shared = VolumeScan.index("data", dir, SharedWrites.now()).entries().stream()
                    .filter(e -> e.shared()).map(e -> e.path()).toList();
            assertEquals(List.of("data.mdb"), shared);
            assertTrue(VolumeScan.index("data", dir).entries().stream().noneMatch(e -> e.shared()), "none without the look");
        }
    }

    /** The hole itself: a second store into the same dirty page, after a scan kept the file's hash, leaves its key unchanged. */
    @Test
    void aScanKeepsNoHashOfAFileMappedSharedAndWritable() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "shared-writes");
        Path file = Files.write(dir.resolve("data.mdb"), new byte[8192]);
        HashCache cache = new HashCache();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8192);
            map.put(0, (byte) 1);                    // the write fault: mtime and ctime now
            Thread.sleep(1_500);                     // older than the racy second by the scan below
            assertEquals(sha256(file), sha(VolumeScan.scan(dir, cache)));
            HashCache.Key before = HashCache.Key.of(file);
            map.put(1, (byte) 2);                    // the same page, still dirty: no fault, no new time
            boolean sameKey = before.equals(HashCache.Key.of(file));
            assertEquals(sha256(file), sha(VolumeScan.scan(dir, cache)),
                    "the second scan must see the second store (the file's key " + (sameKey ? "did not change" : "changed") + ")");
        }
    }

    private static String sha(List<Entry> entries) {
        return entries.stream().filter(e -> e.path().equals("data.mdb")).findFirst().orElseThrow().sha256();
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
