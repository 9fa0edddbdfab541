package mesh.host.backup;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import mesh.bundle.Registry;
import mesh.model.VolumeManifest;

/**
 * PackReader gives a restore or a verify the content of a small file of a backup: a slice of the pack it travels in
 * ({@link Packs}), each pack fetched once while the files that need it come one after the other in the manifest's
 * order; a few packs are kept ({@link #KEPT}), so a content shared by files far apart may fetch its pack again. A
 * content in no pack (every content of a version 1 backup) is fetched from its own blob. The slice is not checked
 * here: the caller hashes what it gets against the manifest and names the file when it differs.
 */
final class PackReader {

    /** How many packs are kept in memory at once: a restore reads a few small files ahead ({@link BlobsAhead}). */
    static final int KEPT = 4;

    /** Where is a content's pack and place in it. */
    private record Where(BackupArtifact.Pack pack, BackupArtifact.Part part) {
    }

    private final Registry registry;
    private final String repository;
    private final Map<String, Where> where = new HashMap<>();
    private final Map<String, CompletableFuture<byte[]>> kept = new LinkedHashMap<>(8, 0.75f, true);

    PackReader(Registry registry, String repository, BackupArtifact.Config config) {
        this.registry = registry;
        this.repository = repository;
        for (BackupArtifact.Pack p : config.packs()) {
            for (BackupArtifact.Part part : p.parts()) {
                where.putIfAbsent(part.sha256(), new Where(p, part));
            }
        }
    }

    /** The pack {@code sha256} travels in, or null when it is a blob of its own. */
    BackupArtifact.Pack pack(String sha256) {
        Where w = where.get(sha256);
        return w == null ? null : w.pack();
    }

    /**
     * The content of the small file {@code e} as the registry holds it: its part of its pack (shorter when the pack is),
     * or its own blob and one byte more if the blob is longer (so a longer content is found). {@code file} names it.
     */
    byte[] content(VolumeManifest.Entry e, String file) {
        Where w = where.get(e.sha256());
        if (w == null) {
            try (InputStream in = BackupFetch.blob(registry, repository, e.sha256(), file)) {
                return in.readNBytes(Math.toIntExact(e.size()) + 1);
            } catch (IOException x) {
                throw new BackupBroken(file + ": its content (sha256 " + BackupRestore.short12(e.sha256()) + ") could not be read: "
                        + x.getMessage(), x);
            }
        }
        byte[] pack = pack(w.pack(), file);
        int from = (int) Math.min(w.part().offset(), pack.length);
        int to = (int) Math.min(w.part().offset() + w.part().size(), pack.length);
        return Arrays.copyOfRange(pack, from, to);
    }

    /** The pack's bytes, fetched once while kept (several callers at once wait for the one fetch). */
    private byte[] pack(BackupArtifact.Pack p, String file) {
        CompletableFuture<byte[]> fetch;
        boolean mine = false;
        synchronized (kept) {
            fetch = kept.get(p.sha256());
            if (fetch == null) {
                fetch = new CompletableFuture<>();
                kept.put(p.sha256(), fetch);
                mine = true;
                if (kept.size() > KEPT) {
                    kept.remove(kept.keySet().iterator().next());
                }
            }
        }
        if (mine) {
            try (InputStream in = BackupFetch.blob(registry, repository, p.sha256(), file + " (in pack " + BackupRestore.short12(p.sha256()) + ")")) {
                fetch.complete(in.readNBytes(Math.toIntExact(p.size())));
            } catch (IOException x) {
                fetch.completeExceptionally(new BackupBroken(file + ": its pack (sha256 " + BackupRestore.short12(p.sha256())
                        + ") could not be read: " + x.getMessage(), x));
            } catch (RuntimeException x) {
                fetch.completeExceptionally(x);
            }
            if (fetch.isCompletedExceptionally()) {
                synchronized (kept) {
                    kept.remove(p.sha256(), fetch);
                }
            }
        }
        try {
            return fetch.join();
        } catch (CompletionException x) {
            if (x.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new BackupBroken(file + ": its pack could not be read: " + x.getCause(), x.getCause());
        }
    }
}
