package mesh.bundle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * BundleCache keeps fetched bundles by manifest digest, {@code DIR/sha256/<hex>/} holding
 * {@code manifest.json}, {@code config.json} and {@code layer.tar.gz}, and trusts nothing it holds:
 * every use hashes all three again against the digests that name them. New entries are assembled
 * in {@code DIR/tmp/} and renamed into place in one step, so a failed fetch leaves the cache as it
 * was and a reader never sees half an entry.
 */
final class BundleCache {

    static final String MANIFEST = "manifest.json";
    static final String CONFIG = "config.json";
    static final String LAYER = "layer.tar.gz";

    /** Cached is a verified entry: its manifest and config, and the layer's file. */
    record Cached(BundleManifest manifest, BundleManifest.Config config, Path layer) {
    }

    /** Lookup is what the cache holds for a digest: a verified entry, nothing, or a corrupt entry and why. */
    record Lookup(Cached cached, String problem) {
        static final Lookup ABSENT = new Lookup(null, null);
    }

    private final Path dir;

    BundleCache(Path dir) {
        this.dir = dir;
    }

    Path entry(Digest manifest) {
        return dir.resolve("sha256").resolve(manifest.hex());
    }

    /** Looks the digest up and checks every file of the entry against its digest. */
    Lookup lookup(Digest manifest) {
        Path entry = entry(manifest);
        if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            return Lookup.ABSENT;
        }
        try {
            byte[] bytes = Files.readAllBytes(entry.resolve(MANIFEST));
            if (!Digest.of(bytes).equals(manifest)) {
                return new Lookup(null, "its cached manifest does not match its digest");
            }
            BundleManifest m = BundleManifest.parse(bytes);
            byte[] config = Files.readAllBytes(entry.resolve(CONFIG));
            if (!Digest.of(config).toString().equals(m.config().digest())) {
                return new Lookup(null, "its cached config does not match its digest");
            }
            Path layer = entry.resolve(LAYER);
            if (Files.size(layer) != m.layer().size() || !Digest.ofFile(layer).toString().equals(m.layer().digest())) {
                return new Lookup(null, "its cached layer does not match its digest");
            }
            return new Lookup(new Cached(m, BundleManifest.parseConfig(config), layer), null);
        } catch (IOException | IllegalArgumentException e) {
            return new Lookup(null, "its cache entry is incomplete or unreadable");
        }
    }

    /** A new, empty folder under {@code DIR/tmp/} to assemble an entry in. */
    Path staging() throws IOException {
        Path tmp = dir.resolve("tmp");
        Files.createDirectories(tmp);
        return Files.createDirectory(tmp.resolve(UUID.randomUUID().toString()));
    }

    /** Removes a staging folder that was not installed, and {@code DIR/tmp/} with it when nothing else is in it. */
    void discard(Path staging) {
        if (staging == null) {
            return;
        }
        BundleUnpack.deleteTree(staging);
        removeTmpIfEmpty();
    }

    private void removeTmpIfEmpty() {
        try {
            Files.deleteIfExists(dir.resolve("tmp"));
        } catch (IOException e) {
            // another fetch is assembling an entry there: it stays
        }
    }

    /** Moves an assembled entry into place, replacing a corrupt one (moved aside first, then deleted). */
    void install(Path staging, Digest manifest) throws IOException {
        Path entry = entry(manifest);
        Files.createDirectories(entry.getParent());
        Path old = null;
        if (Files.exists(entry, LinkOption.NOFOLLOW_LINKS)) {
            old = dir.resolve("tmp").resolve("old-" + UUID.randomUUID());
            Files.move(entry, old, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(staging, entry, StandardCopyOption.ATOMIC_MOVE);
        BundleUnpack.deleteTree(old);
        removeTmpIfEmpty();
    }
}
