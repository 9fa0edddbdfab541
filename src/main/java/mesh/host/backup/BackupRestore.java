package mesh.host.backup;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import mesh.bundle.Registry;
import mesh.host.take.HashCache;
import mesh.host.take.ManifestForm;
import mesh.host.take.TarStreams;
import mesh.host.take.VolumeScan;
import mesh.host.take.VolumeSync;
import mesh.model.VolumeManifest;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * BackupRestore writes one volume of a backup into a folder: a tar stream is made from the volume's manifest (folders,
 * links, modes, numeric owners, user xattrs) and each file's blob, fetched from the registry (the small ones a few at a
 * time ahead of the stream, {@link BlobsAhead}) and hashed as it is read,
 * and GNU tar extracts it with the take's options (so owners, setuid bits and xattrs land as a take's copy lands them).
 * A blob whose sha256 is not the manifest's stops the restore naming the file. Then the folder's own manifest is made
 * and compared with the backup's, entry by entry: the restored data is the backup's byte for byte, or it is refused.
 */
final class BackupRestore {

    private final Registry registry;
    private final String repository;

    BackupRestore(Registry registry, String repository) {
        this.registry = registry;
        this.repository = repository;
    }

    /** Writes {@code volume} into {@code folder} (made and emptied by the caller); its manifest digest, checked. */
    String run(BackupArtifact.Volume volume, Path folder, BackupCounters counters) {
        String name = volume.manifest().volume();
        counters.at(name);
        List<VolumeManifest.Entry> entries = volume.manifest().entries();
        extract(folder, name, entries.stream().filter(e -> "dir".equals(e.type()) || large(e)).toList(), counters);
        HashCache written = new HashCache();
        Thread large = Thread.ofVirtual().name("restore-large").unstarted(() -> {
            for (VolumeManifest.Entry e : entries) {
                if (large(e)) {
                    written(folder, name, e, written, counters);
                }
            }
        });
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        large.setUncaughtExceptionHandler((t, x) -> failed.set(x));
        large.start();
        try {
            extract(folder, name, entries.stream().filter(e -> !"dir".equals(e.type()) && !large(e)).toList(), counters);
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

    /**
     * One tar run that writes {@code entries} (in the manifest's order) into {@code folder}: the restore's first
     * writes the folders and the large files, empty, whose contents are then written beside the second, which
     * writes everything else ({@link #run}).
     */
    private void extract(Path folder, String name, List<VolumeManifest.Entry> entries, BackupCounters counters) {
        Process tar;
        try {
            tar = TarStreams.extract(folder);
        } catch (IOException e) {
            throw new BackupBroken("cannot start tar for volume " + name + ": " + e.getMessage(), e);
        }
        CompletableFuture<String> errors = TarStreams.tail(tar.getErrorStream());
        CompletableFuture.runAsync(() -> drain(tar.getInputStream()), r -> Thread.ofVirtual().start(r));
        try (BlobsAhead ahead = new BlobsAhead(entries, e -> fetch(name, e))) {
            try (TarArchiveOutputStream out = new TarArchiveOutputStream(tar.getOutputStream(), StandardCharsets.UTF_8.name())) {
                out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
                out.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
                for (VolumeManifest.Entry e : entries) {
                    counters.check();
                    write(out, name, e, ahead, counters);
                }
                out.finish();
            }
            int exit = TarStreams.waitFor(tar);
            if (exit != 0) {
                throw new BackupBroken("tar could not write volume " + name + " (exit " + exit + "): " + errors.join());
            }
        } catch (IOException e) {
            tar.destroyForcibly();
            String said = tar.isAlive() ? "" : ": " + errors.join();
            throw new BackupBroken("the restore of volume " + name + " broke off: " + e.getMessage() + said, e);
        } catch (RuntimeException e) {
            tar.destroyForcibly();
            throw e;
        }
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
            written.written(FileFromBlob.write(BackupFetch.blob(registry, repository, e.sha256(), file), path, e, file,
                    counters), e.sha256());
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

    private void write(TarArchiveOutputStream out, String volume, VolumeManifest.Entry e, BlobsAhead ahead,
                       BackupCounters counters) throws IOException {
        String path = ".".equals(e.path()) ? "./" : "./" + e.path();
        TarArchiveEntry t;
        switch (e.type()) {
            case "dir" -> t = new TarArchiveEntry(path.endsWith("/") ? path : path + "/", TarConstants.LF_DIR);
            case "link" -> {
                t = new TarArchiveEntry(path, TarConstants.LF_SYMLINK);
                t.setLinkName(e.link());
            }
            case "file" -> {
                t = new TarArchiveEntry(path, TarConstants.LF_NORMAL);
                t.setSize(large(e) ? 0 : e.size());   // a large file's content comes after tar (FileFromBlob)
            }
            default -> {
                return;   // a fifo, socket or device: no data to keep (docs/backup.md, "Not yet")
            }
        }
        t.setMode(Integer.parseInt(e.mode(), 8));
        t.setUserId(e.uid());
        t.setGroupId(e.gid());
        t.setUserName("");
        t.setGroupName("");
        for (Map.Entry<String, String> x : e.xattrs().entrySet()) {
            t.addPaxHeader("SCHILY.xattr." + x.getKey(), new String(Base64.getDecoder().decode(x.getValue()), StandardCharsets.UTF_8));
        }
        out.putArchiveEntry(t);
        if ("file".equals(e.type()) && !large(e)) {
            copy(out, volume, e, ahead, counters);
        }
        out.closeArchiveEntry();
        counters.files.incrementAndGet();
    }

    /**
     * The file's content from its blob (fetched ahead when small, else streamed), hashed as read; a blob that is not
     * the manifest's content stops the restore.
     */
    private void copy(OutputStream out, String volume, VolumeManifest.Entry e, BlobsAhead ahead, BackupCounters counters)
            throws IOException {
        String file = "volume " + volume + ", file " + e.path();
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException x) {
            throw new IllegalStateException("this Java has no SHA-256", x);
        }
        long n;
        InputStream source = BlobsAhead.small(e) ? new ByteArrayInputStream(ahead.take(e))
                : BackupFetch.blob(registry, repository, e.sha256(), file);
        try (InputStream blob = new DigestInputStream(counters.counted(source, counters.bytes), sha)) {
            n = copyAtMost(blob, out, e.size());
        }
        String found = HexFormat.of().formatHex(sha.digest());
        if (n != e.size() || !found.equals(e.sha256())) {
            throw new BackupBroken(file + ": its content in the registry is not the backup's (sha256 " + short12(found)
                    + ", " + n + " bytes; the manifest says " + short12(e.sha256()) + ", " + e.size() + " bytes)");
        }
    }

    /** A small file's whole blob, and one byte more if the registry has more (so a longer content is found). */
    private byte[] fetch(String volume, VolumeManifest.Entry e) {
        String file = "volume " + volume + ", file " + e.path();
        try (InputStream in = BackupFetch.blob(registry, repository, e.sha256(), file)) {
            return in.readNBytes(Math.toIntExact(e.size()) + 1);
        } catch (IOException x) {
            throw new BackupBroken(file + ": its content (sha256 " + short12(e.sha256()) + ") could not be read: "
                    + x.getMessage(), x);
        }
    }

    private static long copyAtMost(InputStream in, OutputStream out, long size) throws IOException {
        byte[] buffer = new byte[(int) Math.min(256 * 1024, size + 1)];   // a small file's own size, not 256 KiB each
        long done = 0;
        while (done < size) {
            int r = in.read(buffer, 0, (int) Math.min(buffer.length, size - done));
            if (r < 0) {
                break;
            }
            out.write(buffer, 0, r);
            done += r;
        }
        if (done == size && in.read() >= 0) {
            done++;   // longer than the manifest's size: not the backup's content
        }
        if (done < size) {
            byte[] zeros = new byte[(int) Math.min(buffer.length, size - done)];
            long pad = done;
            while (pad < size) {   // the entry must be whole for tar; the caller fails the restore anyway
                int k = (int) Math.min(zeros.length, size - pad);
                out.write(zeros, 0, k);
                pad += k;
            }
        }
        return done;
    }

    static String short12(String hex) {
        return hex == null ? "none" : hex.length() > 12 ? hex.substring(0, 12) + "…" : hex;
    }

    private static void drain(InputStream names) {
        try (names) {
            names.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // tar ended
        }
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
