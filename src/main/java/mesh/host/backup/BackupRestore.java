package mesh.host.backup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import mesh.bundle.Registry;
import mesh.host.take.HashCache;
import mesh.host.take.ManifestForm;
import mesh.host.take.VolumeScan;
import mesh.host.take.VolumeSync;
import mesh.model.VolumeManifest;

/**
 * BackupRestore writes one volume of a backup into a folder, in two GNU tar runs ({@link RestoreTar}): the first makes
 * the folders and the large files (empty, with their owners, modes and xattrs); then, while the second writes the small
 * files and the links, each large file's content is written straight from its blob into its file ({@link FileFromBlob}),
 * or a chunked one's from its chunks' blobs, a few at once ({@link ChunkedWrite}), hashed as written. A blob whose sha256
 * is not the manifest's (or a chunk not the config's) stops the restore naming the file. Then what was written
 * is made durable, the folder's own manifest is made (the large files not read again: their hashes are the ones taken as
 * they were written) and compared with the backup's, entry by entry: the restored data is the backup's byte for byte,
 * or it is refused.
 */
final class BackupRestore {

    private final Registry registry;
    private final String repository;
    private final PackReader packs;
    private final java.util.Map<String, BackupArtifact.Chunked> chunked;

    BackupRestore(Registry registry, String repository, BackupArtifact.Config config) {
        this.registry = registry;
        this.repository = repository;
        this.packs = new PackReader(registry, repository, config);
        this.chunked = BackupArtifact.chunked(config);
    }

    /** Writes {@code volume} into {@code folder} (made and emptied by the caller); its manifest digest, checked. */
    String run(BackupArtifact.Volume volume, Path folder, BackupCounters counters) {
        String name = volume.manifest().volume();
        counters.at(name);
        List<VolumeManifest.Entry> entries = volume.manifest().entries();
        RestoreTar tar = new RestoreTar(packs);
        tar.extract(folder, name, entries.stream().filter(e -> "dir".equals(e.type()) || large(e)).toList(), counters);
        HashCache written = new HashCache();
        Thread large = RegistryThreads.unstarted("restore-large", () -> {
            for (VolumeManifest.Entry e : entries) {
                if (large(e)) {
                    written(folder, name, e, written, counters);
                }
            }
        });
        AtomicReference<Throwable> failed = new AtomicReference<>();
        large.setUncaughtExceptionHandler((t, x) -> failed.set(x));
        large.start();
        try {
            tar.extract(folder, name, entries.stream().filter(e -> !"dir".equals(e.type()) && !large(e)).toList(), counters);
        } catch (RuntimeException e) {
            large.interrupt();
            awaitLarge(large, name, LARGE_STOP);
            throw e;
        }
        awaitLarge(large, name, LARGE_WRITE);
        if (failed.get() instanceof RuntimeException x) {
            throw x;
        }
        if (failed.get() instanceof Error x) {
            throw x;
        }
        durable(folder, name);
        VolumeManifest restored = ManifestForm.of(volume.manifest().module(), name, VolumeScan.scan(folder, written));
        if (!restored.digest().equals(volume.manifest().digest())) {
            String diff = ManifestForm.diff(volume.manifest().entries(), restored.entries()).orElse("their digests differ");
            throw new BackupBroken("volume " + name + " as restored is not the backup's: " + words(diff));
        }
        return restored.digest();
    }

    /** How long a restore that broke off waits for its large files' write to stop (interrupted, it stops at once). */
    private static final java.time.Duration LARGE_STOP = java.time.Duration.ofSeconds(60);
    /**
     * How long the large files may take to be written after tar wrote the rest: a bound only, since each read from
     * the registry has its own timeout (a registry that stops sending fails the write long before).
     */
    private static final java.time.Duration LARGE_WRITE = java.time.Duration.ofDays(1);

    /** Waits for the large files' writes: a restore never returns while one still writes. */
    private static void awaitLarge(Thread large, String name, java.time.Duration most) {
        try {
            if (!large.join(most)) {
                large.interrupt();
                throw new BackupBroken("the large files of volume " + name + " were still being written after " + most
                        + "; stopped");
            }
        } catch (InterruptedException x) {
            large.interrupt();
            Thread.currentThread().interrupt();
            throw new BackupBroken("interrupted while the large files of volume " + name + " were written", x);
        }
    }

    /**
     * Writes a large file's content into the empty file tar made for it ({@link FileFromBlob}), and keeps its hash,
     * taken as it was written, for the check's scan: the file is not read again.
     */
    private void written(Path folder, String volume, VolumeManifest.Entry e, HashCache written, BackupCounters counters) {
        String file = "volume " + volume + ", file " + e.path();
        try {
            Path path = FileFromBlob.madeByTar(folder, e.path());
            if (path == null) {
                throw new BackupBroken(file + ": tar did not make it as a plain file under the volume's folder"
                        + " (a link of the backup on its way?); the restore writes nothing through a link");
            }
            BackupArtifact.Chunked chunks = chunked.get(e.sha256());
            written.written(chunks == null
                    ? FileFromBlob.write(BackupFetch.blob(registry, repository, e.sha256(), file), path, e, file, counters)
                    : ChunkedWrite.write(registry, repository, chunks, path, e, file, counters), e.sha256());
        } catch (IOException x) {
            throw new BackupBroken(file + ": its content could not be written: " + x.getMessage(), x);
        }
    }

    /** Whether {@code e} is a file whose content is written after tar, straight from its blob ({@link FileFromBlob}). */
    static boolean large(VolumeManifest.Entry e) {
        return "file".equals(e.type()) && e.sha256() != null && !BlobsAhead.small(e);
    }

    /** Makes what tar wrote durable before it is checked and the module may start on it, as a take's copy does. */
    private static void durable(Path folder, String volume) {
        try {
            String unsynced = VolumeSync.run(folder, volume, () -> true);
            if (unsynced != null) {
                throw new BackupBroken(unsynced);
            }
        } catch (IOException e) {
            throw new BackupBroken("volume " + volume + " could not be made durable (sync): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackupBroken("interrupted while volume " + volume + " was made durable", e);
        }
    }

    /** The take's diff sentence said of a backup and a restored volume. */
    static String words(String diff) {
        return diff.replace("only on the source", "only in the backup").replace("only on the target", "only in the restored volume")
                .replace("(source ", "(backup ").replace(", target ", ", restored ");
    }

    static String short12(String hex) {
        return hex == null ? "none" : hex.length() > 12 ? hex.substring(0, 12) + "…" : hex;
    }

    /** The volumes of a backup the request names, in the backup's order; a name the backup lacks is refused. */
    static List<BackupArtifact.Volume> chosen(BackupArtifact.Config config, List<String> names) {
        for (String n : names) {
            if (config.volumes().stream().noneMatch(v -> v.manifest().volume().equals(n))) {
                throw new BackupBroken("the backup holds no volume " + n + " (it holds " + String.join(", ",
                        config.volumes().stream().map(v -> v.manifest().volume()).toList()) + ")");
            }
        }
        return config.volumes().stream().filter(v -> names.isEmpty() || names.contains(v.manifest().volume())).toList();
    }
}
