package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.List;
import mesh.model.VolumeManifest.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TarStreamsTest runs the real GNU tar of this machine both ways between two folders, as a take's source
 * and target do, and reads both with {@link VolumeScan}: owners, modes, links and user xattrs arrive, and
 * the manifests agree.
 */
class TarStreamsTest {

    @TempDir
    Path dir;

    @Test
    void aFolderArrivesWithOwnersModesLinksAndXattrsAndTheManifestsAgree() throws Exception {
        Path source = Files.createDirectories(dir.resolve("source/sub"));
        Path root = source.getParent();
        Files.writeString(root.resolve("sub/a.txt"), "alpha");
        Files.write(root.resolve("big.bin"), new byte[3 * 1024 * 1024 + 7]);
        Files.createSymbolicLink(root.resolve("sub/to-a"), Path.of("a.txt"));
        Files.setAttribute(root.resolve("sub/a.txt"), "unix:mode", 0640);
        Files.setAttribute(root.resolve("sub"), "unix:mode", 01750);
        Files.setAttribute(root.resolve("sub/a.txt"), "unix:uid", 4321, LinkOption.NOFOLLOW_LINKS);
        Files.getFileAttributeView(root.resolve("big.bin"), UserDefinedFileAttributeView.class)
                .write("mesh.origin", ByteBuffer.wrap("n1".getBytes(StandardCharsets.UTF_8)));

        ByteArrayOutputStream archive = new ByteArrayOutputStream();
        archive.writeBytes(Drain.all(new ArchivePublisher(root, java.time.Duration.ofSeconds(10), () -> { })));
        assertTrue(archive.size() > 3 * 1024 * 1024, "the archive holds big.bin: " + archive.size());
        Path target = Files.createDirectories(dir.resolve("target"));
        Process tar = TarStreams.extract(target);
        try (OutputStream in = tar.getOutputStream()) {
            archive.writeTo(in);
        }
        tar.getInputStream().readAllBytes();
        assertEquals(0, tar.waitFor(), new String(tar.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));

        List<Entry> a = VolumeScan.scan(root);
        List<Entry> b = VolumeScan.scan(target);
        assertEquals(a, b);
        assertEquals(ManifestForm.digest(a), ManifestForm.digest(b));
        Entry file = a.stream().filter(e -> e.path().equals("sub/a.txt")).findFirst().orElseThrow();
        assertEquals("0640", file.mode());
        assertEquals(4321, file.uid());
        assertEquals("8ed3f6ad685b959ead7022518e1af76cd816f8e8ec7ccdda1ed4018e8f2223f8", file.sha256());
        assertTrue(a.stream().anyMatch(e -> e.path().equals("sub/to-a") && "a.txt".equals(e.link())));
        assertTrue(a.stream().anyMatch(e -> e.path().equals("big.bin") && e.xattrs().get("user.mesh.origin").equals("bjE=")));
        assertEquals(new VolumeScan.Totals(3 * 1024 * 1024 + 7 + 5, 2), VolumeScan.totals(target));

        Files.createSymbolicLink(target.resolve("out"), root.resolve("sub"));   // a link leading out of the folder
        VolumePlaces.empty(target);
        assertTrue(Files.isDirectory(target) && !VolumePlaces.holdsData(target));
        assertTrue(Files.exists(root.resolve("sub/a.txt")), "emptying follows no link out of the folder");
    }
}
