package mesh.host.backup;

import java.io.IOException;
import java.io.InputStream;
import mesh.bundle.BundleFailure;
import mesh.bundle.Digest;
import mesh.bundle.Registry;

/**
 * BackupFetch reads a backup's manifest and config from the registry, each checked against the digest that names it:
 * the manifest against the reference the controller recorded, the config against the manifest's descriptor. So a
 * manifest or config changed in the registry is refused before any file is written.
 */
final class BackupFetch {

    /** Read is the manifest and config of one backup, both checked. */
    record Read(BackupArtifact.Manifest manifest, BackupArtifact.Config config) {
    }

    private static final int MAX_CONFIG = 256 * 1024 * 1024;

    private BackupFetch() {
    }

    static Read read(Registry registry, String repository, String reference) {
        Digest want = Digest.parse(reference);
        if (want == null) {
            throw new BackupBroken("'" + reference + "' is not a backup's manifest digest (sha256:<64 hex>)");
        }
        byte[] bytes;
        try (InputStream in = registry.manifest(repository, reference)) {
            bytes = in.readNBytes(BackupArtifact.MAX_MANIFEST + 1);
        } catch (IOException e) {
            throw new BackupBroken("the manifest of backup " + reference + " could not be read: " + e.getMessage(), e);
        } catch (BundleFailure e) {
            throw new BackupBroken("the manifest of backup " + reference + ": " + e.detail(), e);
        }
        if (!Digest.of(bytes).equals(want)) {
            throw new BackupBroken("the manifest of backup " + reference + " in the registry is not the one backed up"
                    + " (its sha256 is " + Digest.of(bytes) + ")");
        }
        BackupArtifact.Manifest m;
        try {
            m = BackupArtifact.readManifest(bytes, reference);
        } catch (IllegalArgumentException e) {
            throw new BackupBroken(e.getMessage());
        }
        Digest configDigest = Digest.parse(m.config().digest());
        byte[] config;
        try (InputStream in = registry.blob(repository, configDigest)) {
            config = in.readNBytes(MAX_CONFIG);
        } catch (IOException e) {
            throw new BackupBroken("the config of backup " + reference + " could not be read: " + e.getMessage(), e);
        } catch (BundleFailure e) {
            throw new BackupBroken("the config of backup " + reference + ": " + e.detail(), e);
        }
        if (!Digest.of(config).equals(configDigest)) {
            throw new BackupBroken("the config of backup " + reference + " (its volumes' manifests) differs in the registry"
                    + " from what was backed up: sha256 " + Digest.of(config) + ", not " + configDigest);
        }
        try {
            return new Read(m, BackupArtifact.readConfig(config, reference));
        } catch (IllegalArgumentException e) {
            throw new BackupBroken(e.getMessage());
        }
    }

    /**
     * A large file's content: its blob, or, when the backup's config lists it as chunked, its chunks' blobs one after
     * the other ({@link ChunkStream}; each chunk's hash checked). {@code file} names it.
     */
    static InputStream content(Registry registry, String repository, java.util.Map<String, BackupArtifact.Chunked> chunked,
                               String sha256, String file) {
        BackupArtifact.Chunked c = chunked.get(sha256);
        return c == null ? blob(registry, repository, sha256, file) : new ChunkStream(registry, repository, c, file);
    }

    /** A blob's stream, named by the file it holds when it cannot be had. */
    static InputStream blob(Registry registry, String repository, String sha256, String file) {
        try {
            return registry.blob(repository, new Digest(sha256));
        } catch (BundleFailure e) {
            throw new BackupBroken(file + ": its content (sha256 " + sha256.substring(0, 12) + "…) cannot be read: " + e.detail(), e);
        }
    }
}
