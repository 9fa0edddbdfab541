package mesh.host.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mesh.model.VolumeManifest;
import org.junit.jupiter.api.Test;

/** BackupArtifactTest: one layer per distinct content, the first path that holds it, and the manifest's bound. */
class BackupArtifactTest {

    static VolumeManifest.Entry file(String path, String sha, long size) {
        return new VolumeManifest.Entry(path, "file", size, "0644", 0, 0, null, sha, Map.of());
    }

    static BackupArtifact.Config config(List<VolumeManifest.Entry> entries) {
        VolumeManifest m = new VolumeManifest("db", "data", entries.size(), 0, "sha256:x", entries);
        return new BackupArtifact.Config(1, "db", "2026-12-02T10:00:00Z", List.of(new BackupArtifact.Volume("container", m)), null);
    }

    @Test
    void equalContentsAreOneBlobNamedByTheirFirstPath() {
        String a = "a".repeat(64);
        String b = "b".repeat(64);
        BackupArtifact.Config c = config(List.of(
                new VolumeManifest.Entry(".", "dir", 0, "0755", 0, 0, null, null, Map.of()),
                file("x/one", a, 3), file("x/two", a, 3), file("y", b, 5),
                new VolumeManifest.Entry("link", "link", 0, "0777", 0, 0, "y", null, Map.of())));
        assertEquals(Map.of(a, 3L, b, 5L), BackupArtifact.blobs(c));
        assertEquals("volume data, file x/one", BackupArtifact.firstPaths(c).get(a));
        String manifest = new String(BackupArtifact.manifest("sha256:" + "c".repeat(64), 10, c), StandardCharsets.UTF_8);
        assertTrue(manifest.contains("\"artifactType\":\"application/vnd.mesh.backup.v1\""), manifest);
        assertEquals(2, BackupArtifact.readManifest(manifest.getBytes(StandardCharsets.UTF_8), "r").layers().size());
    }

    @Test
    void thePacksAreLayersAndTheirContentsAreNoBlobsOfTheirOwn() {
        String a = "a".repeat(64);
        String b = "b".repeat(64);
        String big = "e".repeat(64);
        BackupArtifact.Config plain = config(List.of(file("x", a, 3), file("y", b, 5), file("z", big, BlobsAhead.SMALL + 1)));
        BackupArtifact.Pack pack = new BackupArtifact.Pack("f".repeat(64), 8, Packs.parts(Packs.contents(
                plain.volumes().stream().map(v -> v.manifest().entries()).toList())));
        BackupArtifact.Config c = new BackupArtifact.Config(2, "db", plain.created(), plain.volumes(), List.of(pack));
        assertEquals(Map.of(big, BlobsAhead.SMALL + 1), BackupArtifact.blobs(c));
        BackupArtifact.Manifest m = BackupArtifact.readManifest(BackupArtifact.manifest("sha256:" + "c".repeat(64), 10, c), "r");
        assertEquals(List.of(new BackupArtifact.Descriptor(BackupArtifact.FILE_TYPE, "sha256:" + big, BlobsAhead.SMALL + 1, null),
                new BackupArtifact.Descriptor(BackupArtifact.PACK_TYPE, "sha256:" + pack.sha256(), 8, null)), m.layers());
        assertEquals(c, BackupArtifact.readConfig(BackupArtifact.write(c), "r"), "the config reads back with its packs");
    }

    @Test
    void aManifestOverFourMegabytesIsRefusedSaySo() {
        List<VolumeManifest.Entry> many = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            many.add(file("f" + i, String.format("%064x", i), BlobsAhead.SMALL + 1));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BackupArtifact.manifest("sha256:" + "c".repeat(64), 10, config(many)));
        assertTrue(e.getMessage().contains("40000 blobs"), e.getMessage());
    }

    @Test
    void anArtifactThatIsNoBackupIsRefused() {
        String bundle = "{\"schemaVersion\":2,\"config\":{\"mediaType\":\"application/vnd.mesh.bundle.config.v1+json\",\"digest\":\"sha256:"
                + "c".repeat(64) + "\",\"size\":1},\"layers\":[]}";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BackupArtifact.readManifest(bundle.getBytes(StandardCharsets.UTF_8), "sha256:d"));
        assertTrue(e.getMessage().contains("is not a mesh backup"), e.getMessage());
    }
}
