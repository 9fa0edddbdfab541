package mesh.host.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.bundle.BundleFailure;
import mesh.bundle.Digest;
import mesh.bundle.Registry;
import mesh.host.take.HashCache;
import mesh.host.take.ManifestForm;
import mesh.host.take.VolumeScan;
import mesh.wire.BackupProgress;
import mesh.model.BackupVolume;
import mesh.model.VolumeManifest;

/**
 * BackupUpload sends a module's volumes to a registry as one backup artifact ({@link BackupArtifact}): each volume's
 * manifest is made (the take's scan, every file's sha256, unchanged files' hashes kept from the last scan in {@link
 * HashCache}), then each distinct content the registry lacks (asked with HEAD) is uploaded, streamed from the file,
 * a buffer at a time; a content it has (an unchanged file of an earlier backup) is not sent again. Then the config and
 * the manifest, under the backup's tag. The data goes from this node to the registry, never through the controller.
 */
public final class BackupUpload {

    /** Folder is one volume to back up: its name, kind and where its data lies here. */
    public record Folder(String name, String kind, Path path) {
    }

    private final Registry registry;
    private final String repository;
    private final HashCache hashes;

    BackupUpload(Registry registry, String repository, HashCache hashes) {
        this.registry = registry;
        this.repository = repository;
        this.hashes = hashes;
    }

    BackupProgress run(String module, String tag, List<Folder> folders, BackupCounters counters) {
        long began = System.nanoTime();
        registry.ping();
        List<BackupArtifact.Volume> volumes = new ArrayList<>();
        Map<String, Path> where = new LinkedHashMap<>();
        for (Folder f : folders) {
            counters.at(f.name());
            counters.check();
            VolumeManifest m = ManifestForm.of(module, f.name(), VolumeScan.scan(f.path(), hashes));
            volumes.add(new BackupArtifact.Volume(f.kind(), m));
            m.entries().stream().filter(e -> "file".equals(e.type()))
                    .forEach(e -> where.putIfAbsent(e.sha256(), f.path().resolve(e.path())));
        }
        BackupArtifact.Config config = new BackupArtifact.Config(1, module, Instant.now().toString(), volumes);
        Map<String, Long> blobs = BackupArtifact.blobs(config);
        sendAll(blobs, where, counters);
        long total = blobs.values().stream().mapToLong(Long::longValue).sum();
        long files = blobs.size();
        byte[] configBytes = BackupArtifact.write(config);
        Digest configDigest = Digest.of(configBytes);
        if (!registry.hasBlob(repository, configDigest)) {
            registry.pushBlob(repository, configDigest, configBytes);
            counters.sent.addAndGet(configBytes.length);
        }
        byte[] manifest = BackupArtifact.manifest(configDigest.toString(), configBytes.length, config);
        Digest manifestDigest = registry.putManifest(repository, tag, manifest);
        List<BackupVolume> done = volumes.stream().map(v -> new BackupVolume(v.manifest().volume(), v.kind(),
                v.manifest().digest(), v.manifest().bytes(), v.manifest().files())).toList();
        long size = total + configBytes.length + manifest.length;
        return BackupProgress.finished(total, files, counters.sent.get() + manifest.length,
                manifestDigest == null ? Digest.of(manifest).toString() : manifestDigest.toString(), size, done,
                (System.nanoTime() - began) / 1e9);
    }

    /**
     * Asks for and uploads the blobs {@link #IN_FLIGHT} at a time: each is a few requests to the registry (HEAD, and
     * for a new content POST and PUT), so a volume of many small files is bound by their round trips, not by bytes;
     * a few in flight hide them. The first failure stops the rest and is thrown.
     */
    private void sendAll(Map<String, Long> blobs, Map<String, Path> where, BackupCounters counters) {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(IN_FLIGHT,
                Thread.ofVirtual().name("backup-upload-", 0).factory());
        java.util.concurrent.atomic.AtomicReference<RuntimeException> first = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (Map.Entry<String, Long> blob : blobs.entrySet()) {
                sent.add(pool.submit(() -> {
                    if (first.get() != null) {
                        return;
                    }
                    try {
                        counters.check();
                        Digest digest = new Digest(blob.getKey());
                        if (!registry.hasBlob(repository, digest)) {
                            send(digest, blob.getValue(), where.get(blob.getKey()), counters);
                        }
                        counters.bytes.addAndGet(blob.getValue());
                        counters.files.incrementAndGet();
                    } catch (RuntimeException e) {
                        first.compareAndSet(null, e);
                    }
                }));
            }
            for (java.util.concurrent.Future<?> f : sent) {
                f.get();
            }
            if (first.get() != null) {
                throw first.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new BackupBroken(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackupBroken("interrupted");
        } finally {
            pool.shutdownNow();
        }
    }

    /** How many blobs are asked for and sent at once. */
    static final int IN_FLIGHT = 4;

    /** Uploads one file's content; the registry checks its digest, so a file changed since it was hashed is refused. */
    private void send(Digest digest, long size, Path file, BackupCounters counters) {
        try (InputStream in = counters.counted(Files.newInputStream(file), counters.sent)) {
            registry.pushBlob(repository, digest, size, in);
        } catch (IOException e) {
            throw new BackupBroken("cannot read " + file + ": " + e.getMessage(), e);
        } catch (BundleFailure e) {
            throw new BackupBroken("the upload of " + file + " failed: " + e.detail()
                    + " (a file that changed after it was hashed is refused by the registry: back up a stopped module,"
                    + " or a copy a backup command made)", e);
        }
    }
}
