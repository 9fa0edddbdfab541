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

/**
 * BackupArtifactTest: one layer per distinct content (a chunked one's chunks instead), the first path that holds it,
 * the manifest's bound, and configs of versions 1 and 2 read as they were written.
 */
class BackupArtifactTest {

    static VolumeManifest.Entry file(String path, String sha, long size) {
        return new VolumeManifest.Entry(path, "file", size, "0644", 0, 0, null, sha, Map.of());
    }

    static BackupArtifact.Config config(List<VolumeManifest.Entry> entries) {
        VolumeManifest m = new VolumeManifest("db", "data", entries.size(), 0, "sha256:x", entries);
        return new BackupArtifact.Config(1, "db", "2026-12-02T10:00:00Z", List.of(new BackupArtifact.Volume("container", m)), null,
                null);
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
        BackupArtifact.Config c = new BackupArtifact.Config(2, "db", plain.created(), plain.volumes(), List.of(pack), null);
        assertEquals(Map.of(big, BlobsAhead.SMALL + 1), BackupArtifact.blobs(c));
        BackupArtifact.Manifest m = BackupArtifact.readManifest(BackupArtifact.manifest("sha256:" + "c".repeat(64), 10, c), "r");
        assertEquals(List.of(new BackupArtifact.Descriptor(BackupArtifact.FILE_TYPE, "sha256:" + big, BlobsAhead.SMALL + 1, null),
                new BackupArtifact.Descriptor(BackupArtifact.PACK_TYPE, "sha256:" + pack.sha256(), 8, null)), m.layers());
        assertEquals(c, BackupArtifact.readConfig(BackupArtifact.write(c), "r"), "the config reads back with its packs");
    }

    @Test
    void aChunkedContentIsItsChunksAsLayersEachOnceAndItsConfigReadsBack() {
        long big = Chunks.SIZE * 2 + 10;
        String whole = "1".repeat(64);
        String again = "2".repeat(64);   // another content whose first chunk is whole's first chunk
        String mid = "3".repeat(64);     // a file of one chunk's size, equal to one of whole's chunks
        String c1 = "a".repeat(64);
        String c2 = "b".repeat(64);
        String c3 = "c".repeat(64);
        String c4 = "d".repeat(64);
        BackupArtifact.Config plain = config(List.of(file("x", whole, big), file("y", whole, big), file("z", again, Chunks.SIZE + 5),
                file("m", c2, Chunks.SIZE), file("n", mid, Chunks.SIZE)));
        List<BackupArtifact.Chunked> chunked = List.of(
                new BackupArtifact.Chunked(whole, big, List.of(new BackupArtifact.Chunk(c1, Chunks.SIZE),
                        new BackupArtifact.Chunk(c2, Chunks.SIZE), new BackupArtifact.Chunk(c3, 10))),
                new BackupArtifact.Chunked(again, Chunks.SIZE + 5, List.of(new BackupArtifact.Chunk(c1, Chunks.SIZE),
                        new BackupArtifact.Chunk(c4, 5))));
        BackupArtifact.Config c = new BackupArtifact.Config(BackupArtifact.VERSION, "db", plain.created(), plain.volumes(), null,
                chunked);
        assertEquals(Map.of(whole, big, again, Chunks.SIZE + 5, c2, Chunks.SIZE, mid, Chunks.SIZE), BackupArtifact.blobs(c),
                "the contents, for the totals");
        BackupArtifact.Manifest m = BackupArtifact.readManifest(BackupArtifact.manifest("sha256:" + "e".repeat(64), 10, c), "r");
        assertEquals(List.of(
                new BackupArtifact.Descriptor(BackupArtifact.FILE_TYPE, "sha256:" + mid, Chunks.SIZE, null),
                new BackupArtifact.Descriptor(BackupArtifact.FILE_TYPE, "sha256:" + c2, Chunks.SIZE, null),
                new BackupArtifact.Descriptor(BackupArtifact.CHUNK_TYPE, "sha256:" + c1, Chunks.SIZE, null),
                new BackupArtifact.Descriptor(BackupArtifact.CHUNK_TYPE, "sha256:" + c3, 10, null),
                new BackupArtifact.Descriptor(BackupArtifact.CHUNK_TYPE, "sha256:" + c4, 5, null)), m.layers(),
                "every blob once: the chunks, never a chunked content itself");
        String json = new String(BackupArtifact.write(c), StandardCharsets.UTF_8);
        assertTrue(json.startsWith("{\"version\":3,"), json);
        BackupArtifact.Config back = BackupArtifact.readConfig(json.getBytes(StandardCharsets.UTF_8), "r");
        assertEquals(c, back, "the config reads back with its chunks");
        assertEquals(chunked.getFirst(), BackupArtifact.chunked(back).get(whole));
    }

    @Test
    void configsOfVersionsOneAndTwoReadAsTheyWereWrittenWithoutChunks() {
        String a = "a".repeat(64);
        String big = "e".repeat(64);
        String entries = "[{\"path\":\"x\",\"type\":\"file\",\"size\":3,\"mode\":\"0644\",\"uid\":0,\"gid\":0,\"sha256\":\"" + a
                + "\",\"xattrs\":{}},{\"path\":\"z\",\"type\":\"file\",\"size\":" + (Chunks.SIZE * 3) + ",\"mode\":\"0644\","
                + "\"uid\":0,\"gid\":0,\"sha256\":\"" + big + "\",\"xattrs\":{}}]";
        String volumes = "\"volumes\":[{\"kind\":\"container\",\"manifest\":{\"module\":\"db\",\"volume\":\"data\",\"files\":2,"
                + "\"bytes\":0,\"digest\":\"sha256:x\",\"entries\":" + entries + "}}]";
        String v1 = "{\"version\":1,\"module\":\"db\",\"created\":\"2026-12-01T10:00:00Z\"," + volumes + "}";
        String v2 = "{\"version\":2,\"module\":\"db\",\"created\":\"2026-12-02T10:00:00Z\"," + volumes
                + ",\"packs\":[{\"sha256\":\"" + "f".repeat(64) + "\",\"size\":3,\"parts\":[{\"sha256\":\"" + a
                + "\",\"offset\":0,\"size\":3}]}]}";
        for (String json : List.of(v1, v2)) {
            BackupArtifact.Config c = BackupArtifact.readConfig(json.getBytes(StandardCharsets.UTF_8), "r");
            assertEquals(List.of(), c.chunked(), json);
            assertEquals(Map.of(), BackupArtifact.chunked(c));
            BackupArtifact.Manifest m = BackupArtifact.readManifest(BackupArtifact.manifest("sha256:" + "c".repeat(64), 10, c), "r");
            assertTrue(m.layers().contains(new BackupArtifact.Descriptor(BackupArtifact.FILE_TYPE, "sha256:" + big, Chunks.SIZE * 3,
                    null)), "a large file of a version " + c.version() + " backup is one blob, whatever its size: " + m.layers());
        }
        assertEquals(1, BackupArtifact.readConfig(v2.getBytes(StandardCharsets.UTF_8), "r").packs().size());
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
