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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
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
 * HashCache}), then the small files' contents go in packs ({@link Packs}) and each large file's content in a blob of its
 * own, streamed from the file a buffer at a time, or, over {@link Chunks#SIZE}, in chunks sent four at a time ({@link
 * ChunkedUpload}); a pack, blob or chunk the registry has (asked with HEAD: unchanged data of an earlier backup) is not
 * sent again. A large file the agent has not hashed before is not read twice: the scan leaves it, and it is hashed as
 * it is sent ({@link Registry#pushBlobHashed}; a chunked one is hashed beside its chunks). Then the config and the
 * manifest, under the backup's tag. The data goes from this node to the registry, never through the controller.
 */
public final class BackupUpload {

    /** Folder is one volume to back up: its name, kind and where its data lies here. */
    public record Folder(String name, String kind, Path path) {
    }

    private final Registry registry;
    private final String repository;
    private final HashCache hashes;
    private final PackNames packNames;
    private final ChunkedUpload chunks;

    BackupUpload(Registry registry, String repository, HashCache hashes, PackNames packNames, ChunkNames chunkNames) {
        this.registry = registry;
        this.repository = repository;
        this.hashes = hashes;
        this.packNames = packNames;
        this.chunks = new ChunkedUpload(registry, repository, hashes, chunkNames);
    }

    BackupProgress run(String module, String tag, List<Folder> folders, BackupCounters counters) {
        long began = System.nanoTime();
        registry.ping();
        List<List<VolumeManifest.Entry>> scanned = new ArrayList<>();
        Map<String, Path> where = new LinkedHashMap<>();
        for (Folder f : folders) {
            counters.at(f.name());
            counters.check();
            List<VolumeManifest.Entry> entries = VolumeScan.scan(f.path(), hashes, BlobsAhead.SMALL);
            scanned.add(entries);
            entries.stream().filter(e -> "file".equals(e.type()) && e.sha256() != null)
                    .forEach(e -> where.putIfAbsent(e.sha256(), f.path().resolve(e.path())));
        }
        List<List<Packs.Content>> cut = Packs.cut(Packs.contents(scanned));
        BackupArtifact.Pack[] packs = new BackupArtifact.Pack[cut.size()];
        List<Runnable> jobs = new ArrayList<>();
        for (int i = 0; i < packs.length; i++) {
            int at = i;
            jobs.add(() -> packs[at] = pack(cut.get(at), where, counters));
        }
        java.util.Set<String> large = new java.util.TreeSet<>();
        Map<Path, String> hashedAsSent = new ConcurrentHashMap<>();
        Map<String, BackupArtifact.Chunked> chunked = new ConcurrentSkipListMap<>();
        for (int i = 0; i < folders.size(); i++) {
            Path folder = folders.get(i).path();
            for (VolumeManifest.Entry e : scanned.get(i)) {
                if (!"file".equals(e.type()) || Packs.packed(e)) {
                    continue;
                }
                Path file = folder.resolve(e.path());
                if (Chunks.chunked(e.size())) {
                    if (e.sha256() == null || large.add(e.sha256())) {
                        jobs.add(() -> {
                            BackupArtifact.Chunked c = chunks.send(file, e, counters);
                            chunked.putIfAbsent(c.sha256(), c);
                            hashedAsSent.put(file, c.sha256());
                        });
                    }
                } else if (e.sha256() == null) {
                    jobs.add(() -> hashedAsSent.put(file, sendHashing(file, e.size(), counters)));
                } else if (large.add(e.sha256())) {
                    jobs.add(() -> blob(new Digest(e.sha256()), e.size(), file, counters));
                }
            }
        }
        sendAll(jobs);
        List<BackupArtifact.Volume> volumes = new ArrayList<>();
        for (int i = 0; i < folders.size(); i++) {
            Folder f = folders.get(i);
            List<VolumeManifest.Entry> entries = scanned.get(i).stream().map(e -> !"file".equals(e.type()) || e.sha256() != null ? e
                    : new VolumeManifest.Entry(e.path(), e.type(), e.size(), e.mode(), e.uid(), e.gid(), e.link(),
                            hashedAsSent.get(f.path().resolve(e.path())), e.xattrs())).toList();
            volumes.add(new BackupArtifact.Volume(f.kind(), ManifestForm.of(module, f.name(), entries)));
        }
        BackupArtifact.Config config = new BackupArtifact.Config(BackupArtifact.VERSION, module, Instant.now().toString(),
                volumes, List.of(packs), List.copyOf(chunked.values()));
        Map<String, Long> blobs = BackupArtifact.blobs(config);
        long total = blobs.values().stream().mapToLong(Long::longValue).sum()
                + cut.stream().flatMap(List::stream).mapToLong(Packs.Content::size).sum();
        long files = blobs.size() + cut.stream().mapToLong(List::size).sum();
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
     * Runs the uploads {@link #IN_FLIGHT} at a time: each blob or pack is a few requests to the registry (HEAD, and for
     * a new content POST and PUT), so a volume of many contents is bound by their round trips, not by bytes; a few in
     * flight hide them. The first failure stops the jobs not yet begun and is thrown once the running ones have ended
     * (the pool's close waits for them: nothing of this backup still writes to the registry after it failed).
     */
    private void sendAll(List<Runnable> jobs) {
        AtomicReference<Throwable> first = new AtomicReference<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(IN_FLIGHT, RegistryThreads.named("backup-upload-"))) {
            for (Runnable job : jobs) {
                pool.execute(() -> {
                    if (first.get() != null) {
                        return;
                    }
                    try {
                        job.run();
                    } catch (RuntimeException | Error e) {
                        first.compareAndSet(null, e);
                    }
                });
            }
        }
        if (Thread.currentThread().isInterrupted()) {   // close() let go of the jobs not begun: the upload is not whole
            throw new BackupBroken("interrupted while the backup's contents were uploaded");
        }
        Throwable failed = first.get();
        if (failed instanceof RuntimeException e) {
            throw e;
        }
        if (failed != null) {
            throw new BackupBroken("an upload failed: " + failed, failed);
        }
    }

    /** One large file's content: sent unless the registry has it (an unchanged file of an earlier backup). */
    private void blob(Digest digest, long size, Path file, BackupCounters counters) {
        counters.check();
        if (!registry.hasBlob(repository, digest)) {
            send(digest, size, file, counters);
        }
        counters.bytes.addAndGet(size);
        counters.files.incrementAndGet();
    }

    /**
     * One large file whose hash the scan left to this upload (its content is new to this agent): read once, hashed as it
     * is sent; its hash is kept for the next scan. A file that changed while it was sent is refused.
     */
    private String sendHashing(Path file, long size, BackupCounters counters) {
        counters.check();
        long started = VolumeScan.now();
        try {
            HashCache.Key before = HashCache.Key.of(file);
            Digest digest;
            try (InputStream in = counters.counted(Files.newInputStream(file), counters.sent)) {
                digest = registry.pushBlobHashed(repository, size, in);
            }
            if (!before.equals(HashCache.Key.of(file)) || before.size() != size) {
                throw new BackupBroken("file " + file + " changed while it was sent: back up a stopped module, or a copy a"
                        + " backup command made");
            }
            hashes.put(before, digest.hex(), started);
            counters.bytes.addAndGet(size);
            counters.files.incrementAndGet();
            return digest.hex();
        } catch (IOException e) {
            throw new BackupBroken("cannot read " + file + ": " + e.getMessage(), e);
        } catch (BundleFailure e) {
            throw new BackupBroken("the upload of " + file + " failed: " + e.detail(), e);
        }
    }

    /**
     * One pack of small contents: when this agent made a pack of the same name before and the registry still has it,
     * nothing is read or sent; else its files are read (each checked against the hash the scan took: a file changed
     * since is refused) into the pack, which is sent unless the registry has it.
     */
    private BackupArtifact.Pack pack(List<Packs.Content> contents, Map<String, Path> where, BackupCounters counters) {
        counters.check();
        String key = Packs.key(contents);
        long size = contents.stream().mapToLong(Packs.Content::size).sum();
        String known = packNames.digest(key);
        if (known == null || !registry.hasBlob(repository, new Digest(known))) {
            byte[] bytes = new byte[Math.toIntExact(size)];
            int at = 0;
            for (Packs.Content c : contents) {
                at += read(where.get(c.sha256()), c, bytes, at);
            }
            Digest digest = Digest.of(bytes);
            if (!registry.hasBlob(repository, digest)) {
                registry.pushBlob(repository, digest, bytes);
                counters.sent.addAndGet(bytes.length);
            }
            known = digest.hex();
            packNames.made(key, known);
        }
        counters.bytes.addAndGet(size);
        counters.files.addAndGet(contents.size());
        return new BackupArtifact.Pack(known, size, Packs.parts(contents));
    }

    /** Reads {@code file}, the content {@code c}, into {@code into} at {@code at}; refused when it is not that content now. */
    private static int read(Path file, Packs.Content c, byte[] into, int at) {
        byte[] content;
        try (InputStream in = Files.newInputStream(file)) {
            content = in.readNBytes(Math.toIntExact(c.size()) + 1);   // a file grown since is not read whole
        } catch (IOException e) {
            throw new BackupBroken("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (content.length != c.size() || !Digest.of(content).hex().equals(c.sha256())) {
            throw new BackupBroken("file " + file + " changed after it was hashed (" + content.length + " bytes, "
                    + c.size() + " when hashed): back up a stopped module, or a copy a backup command made");
        }
        System.arraycopy(content, 0, into, at, content.length);
        return content.length;
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
