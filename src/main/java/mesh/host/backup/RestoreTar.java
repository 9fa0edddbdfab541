package mesh.host.backup;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import mesh.bundle.Digest;
import mesh.host.take.TarStreams;
import mesh.model.VolumeManifest;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * RestoreTar is one GNU tar run of a restore ({@link BackupRestore}): a tar stream made from entries of a volume's
 * manifest (folders, links, modes, numeric owners, user xattrs) and the small files' contents (fetched a few at a
 * time ahead of the stream, {@link BlobsAhead}, from their packs, {@link PackReader}; hashed as read), extracted with the take's options, so owners, setuid bits
 * and xattrs land as a take's copy lands them. A large file goes in empty: its content is written after
 * ({@link FileFromBlob}). A small file whose blob is not the manifest's content stops the restore naming the file.
 */
final class RestoreTar {

    private final PackReader packs;

    RestoreTar(PackReader packs) {
        this.packs = packs;
    }

    /**
     * One tar run that writes {@code entries} (in the manifest's order) into {@code folder}: the restore's first
     * writes the folders and the large files, empty, whose contents are then written beside the second, which
     * writes everything else ({@link #run}).
     */
    void extract(Path folder, String name, List<VolumeManifest.Entry> entries, BackupCounters counters) {
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
                t.setSize(BackupRestore.large(e) ? 0 : e.size());   // a large file's content comes after tar (FileFromBlob)
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
        if ("file".equals(e.type()) && !BackupRestore.large(e)) {
            copy(out, volume, e, ahead, counters);
        }
        out.closeArchiveEntry();
        counters.files.incrementAndGet();
    }

    /**
     * A small file's content, fetched ahead ({@link BlobsAhead}; a large one is written after tar, {@link FileFromBlob}),
     * hashed as copied; a content that is not the manifest's stops the restore.
     */
    private void copy(OutputStream out, String volume, VolumeManifest.Entry e, BlobsAhead ahead, BackupCounters counters)
            throws IOException {
        String file = "volume " + volume + ", file " + e.path();
        MessageDigest sha = Digest.sha256();
        long n;
        try (InputStream blob = new DigestInputStream(counters.counted(new ByteArrayInputStream(ahead.take(e)), counters.bytes), sha)) {
            n = copyAtMost(blob, out, e.size());
        }
        BackupBroken.unlessTheBackups(file, sha, n, e);
    }

    /** A small file's content: its part of its pack, or its own blob (and one byte more if the registry has more). */
    private byte[] fetch(String volume, VolumeManifest.Entry e) {
        return packs.content(e, "volume " + volume + ", file " + e.path());
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

    private static void drain(InputStream names) {
        try (names) {
            names.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // tar ended
        }
    }
}
