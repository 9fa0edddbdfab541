package mesh.host.backup;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import mesh.bundle.Digest;
import mesh.bundle.Registry;
import mesh.wire.BackupProgress;
import mesh.model.BackupVolume;
import mesh.model.VolumeManifest;

/**
 * BackupVerify reads a whole backup back from the registry and checks it: the manifest against its digest, the config
 * against the manifest, every file's content (each distinct content once, in the order of the volumes' paths: a large
 * file's blob, a small file's part of its pack, {@link PackReader}, a chunked file's chunks one after the other, each
 * against its own sha256 too, {@link ChunkStream}) against the sha256 and size its manifest entry gives, and that the
 * manifest lists its blob, chunks or pack as layers (so the registry keeps them).
 * The first file whose content differs is named; nothing is written anywhere.
 */
final class BackupVerify {

    private final Registry registry;
    private final String repository;

    BackupVerify(Registry registry, String repository) {
        this.registry = registry;
        this.repository = repository;
    }

    BackupProgress run(String reference, BackupCounters counters) {
        long began = System.nanoTime();
        BackupFetch.Read read = BackupFetch.read(registry, repository, reference);
        Map<String, Long> layers = new HashMap<>();
        read.manifest().layers().forEach(l -> layers.put(l.digest(), l.size()));
        PackReader packs = new PackReader(registry, repository, read.config());
        Map<String, BackupArtifact.Chunked> chunked = BackupArtifact.chunked(read.config());
        Set<String> checked = new HashSet<>();
        long bytes = 0;
        long files = 0;
        for (BackupArtifact.Volume v : read.config().volumes()) {
            counters.at(v.manifest().volume());
            for (VolumeManifest.Entry e : v.manifest().entries()) {
                if (!"file".equals(e.type())) {
                    continue;
                }
                counters.check();
                String file = "volume " + v.manifest().volume() + ", file " + e.path();
                BackupArtifact.Pack pack = packs.pack(e.sha256());
                if (chunked.containsKey(e.sha256())) {
                    for (BackupArtifact.Chunk c : chunked.get(e.sha256()).chunks()) {
                        listed(layers, file, c.sha256(), c.size(), ", a chunk");
                    }
                } else {
                    listed(layers, file, pack == null ? e.sha256() : pack.sha256(), pack == null ? e.size() : pack.size(),
                            pack == null ? "" : ", a pack");
                }
                if (checked.add(e.sha256())) {
                    if (pack == null) {
                        check(file, e, chunked, counters);
                    } else {
                        byte[] content = packs.content(e, file);
                        counters.bytes.addAndGet(content.length);
                        MessageDigest sha = Digest.sha256();
                        sha.update(content);
                        unlessTheManifests(file, e, HexFormat.of().formatHex(sha.digest()), content.length);
                    }
                    bytes += e.size();
                }
                files++;
                counters.files.incrementAndGet();
            }
        }
        return BackupProgress.finished(bytes, files, 0, reference, bytes, read.config().volumes().stream()
                .map(v -> new BackupVolume(v.manifest().volume(), v.kind(), v.manifest().digest(), v.manifest().bytes(),
                        v.manifest().files())).toList(), (System.nanoTime() - began) / 1e9);
    }

    /** Refuses a blob of {@code file} that the manifest does not list as a layer of its size. */
    private static void listed(Map<String, Long> layers, String file, String blob, long size, String what) {
        Long layer = layers.get("sha256:" + blob);
        if (layer == null || layer != size) {
            throw new BackupBroken(file + ": the backup's manifest does not list its content (sha256 "
                    + BackupRestore.short12(blob) + what + ") as a layer");
        }
    }

    private void check(String file, VolumeManifest.Entry e, Map<String, BackupArtifact.Chunked> chunked, BackupCounters counters) {
        MessageDigest sha = Digest.sha256();
        long n;
        try (InputStream in = new DigestInputStream(counters.counted(BackupFetch.content(registry, repository, chunked,
                e.sha256(), file), counters.bytes), sha)) {
            n = in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException x) {
            throw new BackupBroken(file + ": its content could not be read from the registry: " + x.getMessage(), x);
        }
        unlessTheManifests(file, e, HexFormat.of().formatHex(sha.digest()), n);
    }

    /** Refuses a content read back whose sha256 or size is not the manifest's, naming the file. */
    private static void unlessTheManifests(String file, VolumeManifest.Entry e, String found, long n) {
        if (n != e.size() || !found.equals(e.sha256())) {
            throw new BackupBroken(file + ": its content in the registry differs from the backup's manifest (sha256 "
                    + BackupRestore.short12(found) + ", " + n + " bytes; the manifest says "
                    + BackupRestore.short12(e.sha256()) + ", " + e.size() + " bytes)");
        }
    }
}
