package mesh.host.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import mesh.bundle.Digest;
import mesh.bundle.Registry;
import mesh.bundle.RegistryFixture;
import mesh.host.take.HashCache;
import mesh.model.VolumeManifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ChunkedUploadIT: a file of two chunks into a real registry (Distribution, {@link RegistryFixture}, one per test) and
 * back. Sent: each chunk a blob, the whole file's
 * sha256 hashed beside them; again: nothing sent, also after the agent forgot its chunks (found with HEAD); a chunk
 * gone or changed: only that one sent; read back in order ({@link ChunkStream}) and restored side by side ({@link
 * ChunkedWrite}); a chunk changed in the registry named with its file and chunk.
 */
class ChunkedUploadIT {

    @TempDir
    Path folder;
    byte[] data;
    Path file;
    RegistryFixture fixture;
    Registry registry;
    HashCache hashes = new HashCache();

    @BeforeEach
    void aRegistryAndAFileOfTwoChunks() throws Exception {
        fixture = new RegistryFixture(RegistryFixture.ENGINE, "127.0.0.1", Map.of("REGISTRY_STORAGE_DELETE_ENABLED", "true"));
        registry = fixture.registry();
        data = new byte[Math.toIntExact(Chunks.SIZE + 1000)];
        new Random(7).nextBytes(data);
        file = folder.resolve("big.bin");
        Files.write(file, data);
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(60)));
        Thread.sleep(1100);   // the hash cache keeps only a hash whose file's ctime is over a second older than the scan
    }

    @AfterEach
    void removeTheRegistry() {
        fixture.close();
    }

    VolumeManifest.Entry entry(String sha256) {
        return new VolumeManifest.Entry("big.bin", "file", data.length, "0644", 0, 0, null, sha256, Map.of());
    }

    @Test
    void eachChunkIsABlobTheWholeHashIsTheFilesAndASecondBackupSendsNothing() throws Exception {
        ChunkNames names = new ChunkNames();
        ChunkedUpload upload = new ChunkedUpload(registry, "mesh-backup/db", hashes, names);
        BackupCounters counters = new BackupCounters();
        BackupArtifact.Chunked sent = upload.send(file, entry(null), counters);
        assertEquals(Digest.of(data).hex(), sent.sha256(), "the whole file's sha256, as the take's manifest has it");
        byte[] first = Arrays.copyOf(data, (int) Chunks.SIZE);
        byte[] second = Arrays.copyOfRange(data, (int) Chunks.SIZE, data.length);
        assertEquals(List.of(new BackupArtifact.Chunk(Digest.of(first).hex(), Chunks.SIZE),
                new BackupArtifact.Chunk(Digest.of(second).hex(), 1000)), sent.chunks());
        assertEquals(data.length, counters.sent.get(), "both chunks sent");
        assertArrayEquals(second, blob("mesh-backup/db", Digest.of(second)), "the registry holds the second chunk as sent");
        assertEquals(sent.sha256(), hashes.get(HashCache.Key.of(file)), "the hash is kept for the next scan");

        BackupCounters unchanged = new BackupCounters();
        assertEquals(sent, upload.send(file, entry(sent.sha256()), unchanged));
        assertEquals(0, unchanged.sent.get(), "unchanged: nothing sent");
        BackupCounters restarted = new BackupCounters();
        assertEquals(sent, new ChunkedUpload(registry, "mesh-backup/db", hashes, new ChunkNames())
                .send(file, entry(sent.sha256()), restarted));
        assertEquals(0, restarted.sent.get(), "chunks forgotten: cut and hashed again, found with HEAD, not sent");

        fixture.deleteBlob("mesh-backup/db", Digest.of(second));
        BackupCounters again = new BackupCounters();
        assertEquals(sent, upload.send(file, entry(sent.sha256()), again));
        assertEquals(1000, again.sent.get(), "only the chunk the registry lacks is sent");

        data[data.length - 10] ^= 1;
        Files.write(file, data);   // a change in the second chunk: a content new to this agent, its hash left by the scan
        BackupCounters changed = new BackupCounters();
        BackupArtifact.Chunked again2 = upload.send(file, entry(null), changed);
        assertEquals(Digest.of(data).hex(), again2.sha256());
        assertEquals(sent.chunks().getFirst(), again2.chunks().getFirst(), "the first chunk is the same blob");
        assertEquals(1000, changed.sent.get(), "only the chunk that changed is sent");
        data[data.length - 10] ^= 1;
        Files.write(file, data);

        BackupArtifact.Chunked listed = new BackupArtifact.Chunked(sent.sha256(), data.length, sent.chunks());
        try (InputStream in = BackupFetch.content(registry, "mesh-backup/db", Map.of(sent.sha256(), listed), sent.sha256(),
                "volume data, file big.bin")) {
            assertArrayEquals(data, in.readAllBytes(), "read back: the chunks in order");
        }
        Path restored = Files.createFile(folder.resolve("restored.bin"));
        ChunkedWrite.write(registry, "mesh-backup/db", listed, restored, entry(sent.sha256()), "volume data, file big.bin",
                new BackupCounters());
        assertArrayEquals(data, Files.readAllBytes(restored), "restored: each chunk written at its offset, side by side");

        // chunks that are each the config's but not, together, the manifest's file: refused, not restored as the backup
        String other = Digest.of(new byte[] {1}).hex();
        BackupBroken notTheFile = assertThrows(BackupBroken.class, () -> ChunkedWrite.write(registry, "mesh-backup/db",
                new BackupArtifact.Chunked(other, data.length, sent.chunks()), Files.createFile(folder.resolve("other.bin")),
                entry(other), "volume data, file big.bin", new BackupCounters()));
        assertTrue(notTheFile.getMessage().startsWith("volume data, file big.bin: its chunks in the registry")
                && notTheFile.getMessage().contains("are not the file the backup's manifest names"), notTheFile.getMessage());
        // a config whose chunk sizes are not the file's: refused before anything is fetched
        List<BackupArtifact.Chunk> bent = List.of(new BackupArtifact.Chunk(sent.chunks().get(0).sha256(), data.length + 5),
                new BackupArtifact.Chunk(sent.chunks().get(1).sha256(), -5));
        BackupBroken sizes = assertThrows(BackupBroken.class, () -> ChunkedWrite.write(registry, "mesh-backup/db",
                new BackupArtifact.Chunked(sent.sha256(), data.length, bent), Files.createFile(folder.resolve("bent.bin")),
                entry(sent.sha256()), "volume data, file big.bin", new BackupCounters()));
        assertEquals("volume data, file big.bin: the backup's config lists chunk 2 of 2 with -5 bytes", sizes.getMessage());
    }

    @Test
    void aChunkChangedInTheRegistryIsNamedWithItsFile() throws Exception {
        BackupArtifact.Chunked sent = new ChunkedUpload(registry, "r", hashes, new ChunkNames()).send(file, entry(null),
                new BackupCounters());
        Path second = fixture.blobFile(new Digest(sent.chunks().get(1).sha256()));
        byte[] bytes = Files.readAllBytes(second);
        bytes[500] ^= 1;
        Files.write(second, bytes);   // in the registry's own storage, as a failing disk would
        Map<String, BackupArtifact.Chunked> chunked = Map.of(sent.sha256(), sent);
        BackupBroken verify = assertThrows(BackupBroken.class, () -> {
            try (InputStream in = BackupFetch.content(registry, "r", chunked, sent.sha256(), "volume data, file big.bin")) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
        });
        assertTrue(verify.getMessage().startsWith("volume data, file big.bin: chunk 2 of 2"), verify.getMessage());
        assertTrue(verify.getMessage().contains("differs from the backup's config"), verify.getMessage());

        Path restored = Files.createFile(folder.resolve("restored.bin"));
        BackupBroken restore = assertThrows(BackupBroken.class, () -> ChunkedWrite.write(registry, "r", sent, restored,
                entry(sent.sha256()), "volume data, file big.bin", new BackupCounters()));
        assertTrue(restore.getMessage().startsWith("volume data, file big.bin: chunk 2 of 2 (bytes from " + Chunks.SIZE + ")")
                && restore.getMessage().contains("its content in the registry is not the backup's"), restore.getMessage());

        Files.write(second, Arrays.copyOf(bytes, 999));
        BackupBroken shorter = assertThrows(BackupBroken.class, () -> ChunkedWrite.write(registry, "r", sent,
                Files.createFile(folder.resolve("r2.bin")), entry(sent.sha256()), "volume data, file big.bin", new BackupCounters()));
        // Distribution sends the length it recorded and closes the connection a byte early: read as a blob cut short
        assertTrue(shorter.getMessage().startsWith("volume data, file big.bin: chunk 2 of 2")
                && shorter.getMessage().contains("could not be read to its end"), shorter.getMessage());
    }

    @Test
    void aFileThatChangedSinceItWasHashedIsRefused() throws Exception {
        ChunkNames names = new ChunkNames();
        BackupArtifact.Chunked sent = new ChunkedUpload(registry, "r", hashes, names).send(file, entry(null), new BackupCounters());
        data[10] ^= 1;
        Files.write(file, data);   // same size; the scan's hash (and the remembered chunks) are the old content's
        for (BackupArtifact.Chunk c : sent.chunks()) {
            fixture.deleteBlob("r", new Digest(c.sha256()));
        }
        BackupBroken changed = assertThrows(BackupBroken.class, () -> new ChunkedUpload(registry, "r", hashes, names)
                .send(file, entry(sent.sha256()), new BackupCounters()));
        assertTrue(changed.getMessage().contains("refused by the registry"), changed.getMessage());
    }

    byte[] blob(String repository, Digest digest) throws Exception {
        try (InputStream in = registry.blob(repository, digest)) {
            return in.readAllBytes();
        }
    }
}
