package mesh.host.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import mesh.host.take.HashCache;
import mesh.model.VolumeManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileFromBlobTest {

    @TempDir
    Path folder;

    private static byte[] content(int size) {
        byte[] b = new byte[size];
        new Random(size).nextBytes(b);
        return b;
    }

    private static VolumeManifest.Entry entry(String path, byte[] content) throws Exception {
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        return new VolumeManifest.Entry(path, "file", content.length, "0644", 0, 0, null, sha, Map.of());
    }

    private Path empty(String name) throws IOException {
        return Files.createFile(folder.resolve(name));
    }

    @Test
    void writesTheWholeContentAcrossManyBuffersAndGivesTheKeyOfTheFileAsWritten() throws Exception {
        byte[] data = content(FileFromBlob.BUFFER * (FileFromBlob.BUFFERS + 3) + 17);   // more buffers than go round
        Path file = empty("big.bin");
        HashCache.Key key = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> FileFromBlob.write(
                new ByteArrayInputStream(data), file, entry("big.bin", data), "file big.bin", new BackupCounters()));
        assertArrayEquals(data, Files.readAllBytes(file));
        assertEquals(HashCache.Key.of(file), key);
        assertEquals(data.length, key.size());
    }

    @Test
    void aContentThatIsNotTheManifestsIsRefusedNamingTheFile() throws Exception {
        byte[] data = content(3 * FileFromBlob.BUFFER);
        byte[] other = data.clone();
        other[FileFromBlob.BUFFER + 5] ^= 1;
        BackupBroken changed = assertThrows(BackupBroken.class, () -> FileFromBlob.write(new ByteArrayInputStream(other),
                empty("a.bin"), entry("a.bin", data), "volume data, file a.bin", new BackupCounters()));
        assertTrue(changed.getMessage().startsWith("volume data, file a.bin: its content in the registry is not the backup's"),
                changed.getMessage());

        byte[] longer = java.util.Arrays.copyOf(data, data.length + 1);
        BackupBroken more = assertThrows(BackupBroken.class, () -> FileFromBlob.write(new ByteArrayInputStream(longer),
                empty("b.bin"), entry("b.bin", data), "file b.bin", new BackupCounters()));
        assertTrue(more.getMessage().contains((data.length + 1) + " bytes; the manifest says"), more.getMessage());
        assertEquals(data.length, Files.size(folder.resolve("b.bin")), "never more than the manifest's size written");

        byte[] shorter = java.util.Arrays.copyOf(data, data.length - 1);
        BackupBroken fewer = assertThrows(BackupBroken.class, () -> FileFromBlob.write(new ByteArrayInputStream(shorter),
                empty("c.bin"), entry("c.bin", data), "file c.bin", new BackupCounters()));
        assertTrue(fewer.getMessage().contains((data.length - 1) + " bytes; the manifest says"), fewer.getMessage());
    }

    @Test
    void aBlobThatBreaksOffFailsTheWriteInsteadOfHangingIt() throws Exception {
        byte[] data = content(8 * FileFromBlob.BUFFER);
        InputStream breaking = new InputStream() {
            private int given;

            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (given > 2 * FileFromBlob.BUFFER) {
                    throw new IOException("connection reset");
                }
                int n = Math.min(len, 64 * 1024);
                given += n;
                return n;
            }
        };
        BackupBroken e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThrows(BackupBroken.class,
                () -> FileFromBlob.write(breaking, empty("d.bin"), entry("d.bin", data), "file d.bin", new BackupCounters())));
        assertEquals("file d.bin: its content could not be read from the registry to its end (connection reset)", e.getMessage());
    }

    @Test
    void onlyAnEmptyPlainFileReachedThroughNoLinkIsWrittenInto() throws Exception {
        Files.createDirectories(folder.resolve("d"));
        Path plain = empty("d/x.bin");
        assertEquals(plain, FileFromBlob.madeByTar(folder, "d/x.bin"));

        Path outside = Files.createDirectories(folder.resolveSibling(folder.getFileName() + "-elsewhere"));
        try {
            Files.createFile(outside.resolve("x.bin"));
            Files.createSymbolicLink(folder.resolve("via"), outside);
            assertNull(FileFromBlob.madeByTar(folder, "via/x.bin"), "a link on the way");
            Files.createSymbolicLink(folder.resolve("link.bin"), outside.resolve("x.bin"));
            assertNull(FileFromBlob.madeByTar(folder, "link.bin"), "a link itself");
            assertNull(FileFromBlob.madeByTar(folder, "../" + outside.getFileName() + "/x.bin"), "out of the folder");
            Files.writeString(folder.resolve("full.bin"), "x");
            assertNull(FileFromBlob.madeByTar(folder, "full.bin"), "not the empty file tar made");
            assertNull(FileFromBlob.madeByTar(folder, "missing.bin"), "not there");
        } finally {
            Files.deleteIfExists(outside.resolve("x.bin"));
            Files.deleteIfExists(outside);
        }
    }
}
