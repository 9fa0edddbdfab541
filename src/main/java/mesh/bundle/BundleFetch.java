package mesh.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * BundleFetch brings a bundle from the artifact store onto this machine, the way Nomad's artifact
 * fetching learned to: only by digest; manifest, config and layer each downloaded to a temporary
 * file and checked (size, then sha256) before anything uses them; kept in a {@link BundleCache}
 * that is checked again on every use; unpacked under {@link BundleLimits} by
 * {@link BundleEntryCheck}'s rules into a folder that appears whole or not at all. Any failure is
 * a {@link BundleFailure} naming the bundle, and leaves the cache and the target as they were.
 */
public final class BundleFetch {

    /** Bundle is a fetched bundle: its pinned reference, config, folder and the executable to run. */
    public record Bundle(BundleRef ref, BundleManifest.Config config, Path dir, Path entrypoint, List<String> notes) {
    }

    private final Registry registry;
    private final BundleCache cache;
    private final BundleLimits limits;

    /** @param cacheDir where bundles are kept by digest, e.g. {@code <state-dir>/bundles} */
    public BundleFetch(Registry registry, Path cacheDir, BundleLimits limits) {
        this.registry = registry;
        this.cache = new BundleCache(cacheDir);
        this.limits = limits;
    }

    /** NAME:TAG → NAME@sha256:…, the digest of the manifest the tag names now (checked to be a bundle's). */
    public BundleRef resolve(BundleRef ref) {
        return resolve(registry, ref);
    }

    /** As {@link #resolve(BundleRef)}, against {@code registry}: what the controller does when it plans a push. */
    public static BundleRef resolve(Registry registry, BundleRef ref) {
        if (ref.pinned()) {
            return ref;
        }
        String subject = BundleFailure.subject(ref);
        try {
            byte[] bytes = manifestBytes(registry, ref, subject);
            parse(bytes, subject);
            return ref.pinnedTo(Digest.of(bytes));
        } catch (BundleFailure e) {
            throw e.about(subject);
        }
    }

    /**
     * Fetches the bundle {@code ref} names (it must carry a digest) and unpacks it into
     * {@code target}, which must not exist. A cached copy is used when it still matches its digests;
     * one that does not is fetched again (and said so in the notes).
     */
    public Bundle fetch(BundleRef ref, Path target) {
        try {
            return fetchAs(BundleFailure.subject(ref), ref, target);
        } catch (BundleFailure e) {
            throw e.about(BundleFailure.subject(ref));
        }
    }

    private Bundle fetchAs(String subject, BundleRef ref, Path target) {
        if (!ref.pinned()) {
            throw new BundleFailure(subject, BundleFailure.Reason.INPUT,
                    "a bundle is fetched by digest only (NAME@sha256:...); resolve the tag first");
        }
        if (Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new BundleFailure(subject, BundleFailure.Reason.INPUT, "the target folder " + target + " already exists");
        }
        List<String> notes = new ArrayList<>();
        BundleCache.Lookup lookup = cache.lookup(ref.digest());
        if (lookup.cached() != null) {
            return unpack(ref, lookup.cached(), target, notes, subject);
        }
        if (lookup.problem() != null) {
            notes.add(lookup.problem() + "; fetched it again");
        }
        Path staging = null;
        try {
            staging = cache.staging();
            BundleCache.Cached fresh = download(ref, staging, subject);
            // unpacked before it is cached: a bundle refused at unpacking leaves the cache as it was
            Bundle bundle = unpack(ref, fresh, target, notes, subject);
            try {
                cache.install(staging, ref.digest());
                staging = null;
            } catch (IOException e) {
                BundleUnpack.deleteTree(target);
                throw e;
            }
            return bundle;
        } catch (IOException e) {
            throw new BundleFailure(subject, BundleFailure.Reason.LOCAL, "cannot write its cache: " + e.getMessage(), e);
        } finally {
            cache.discard(staging);
        }
    }

    private Bundle unpack(BundleRef ref, BundleCache.Cached cached, Path target, List<String> notes, String subject) {
        BundleUnpack.unpack(cached.layer(), target, limits, subject);
        Path entrypoint = entrypoint(target, cached.config(), subject);
        return new Bundle(ref, cached.config(), target, entrypoint, List.copyOf(notes));
    }

    /** Downloads manifest, config and layer into {@code staging}, each checked against its digest and size. */
    private BundleCache.Cached download(BundleRef ref, Path staging, String subject) throws IOException {
        byte[] manifestBytes = manifestBytes(registry, ref, subject);
        Digest got = Digest.of(manifestBytes);
        if (!got.equals(ref.digest())) {
            throw new BundleFailure(subject, BundleFailure.Reason.DIGEST_MISMATCH,
                    "the artifact store sent a manifest whose digest is " + got + ", not the one asked for");
        }
        BundleManifest manifest = parse(manifestBytes, subject);
        BundleManifest.Descriptor layer = manifest.layer();
        if (manifest.config().size() > BundleLimits.MAX_MANIFEST_BYTES) {
            throw new BundleFailure(subject, BundleFailure.Reason.NOT_A_BUNDLE,
                    "its config is " + manifest.config().size() + " bytes; a bundle's is a few hundred");
        }
        if (layer.size() > limits.maxBytes()) {
            throw new BundleFailure(subject, BundleFailure.Reason.TOO_LARGE, "its layer is " + layer.size()
                    + " bytes, over the limit of " + limits.maxBytes() + " bytes");
        }
        Files.write(staging.resolve(BundleCache.MANIFEST), manifestBytes);
        blob(ref, "config", manifest.config(), staging.resolve(BundleCache.CONFIG), subject);
        BundleManifest.Config config;
        try {
            config = BundleManifest.parseConfig(Files.readAllBytes(staging.resolve(BundleCache.CONFIG)));
        } catch (IllegalArgumentException e) {
            throw new BundleFailure(subject, BundleFailure.Reason.NOT_A_BUNDLE, e.getMessage());
        }
        blob(ref, "layer", layer, staging.resolve(BundleCache.LAYER), subject);
        return new BundleCache.Cached(manifest, config, staging.resolve(BundleCache.LAYER));
    }

    private static byte[] manifestBytes(Registry registry, BundleRef ref, String subject) {
        try (InputStream body = registry.manifest(ref.name(), ref.reference())) {
            byte[] bytes = body.readNBytes((int) BundleLimits.MAX_MANIFEST_BYTES + 1);
            if (bytes.length > BundleLimits.MAX_MANIFEST_BYTES) {
                throw new BundleFailure(subject, BundleFailure.Reason.NOT_A_BUNDLE, "its manifest is larger than 4 MiB");
            }
            return bytes;
        } catch (IOException e) {
            throw new BundleFailure(subject, BundleFailure.Reason.UNREACHABLE,
                    "the download of its manifest broke off (" + HttpRegistry.describe(e) + ")", e);
        }
    }

    private static BundleManifest parse(byte[] bytes, String subject) {
        try {
            return BundleManifest.parse(bytes);
        } catch (IllegalArgumentException e) {
            throw new BundleFailure(subject, BundleFailure.Reason.NOT_A_BUNDLE, e.getMessage());
        }
    }

    /** Downloads one blob to {@code to}: never more than its size + 1 bytes, then size and sha256 checked. */
    private void blob(BundleRef ref, String what, BundleManifest.Descriptor d, Path to, String subject) throws IOException {
        Digest want = Digest.parse(d.digest());
        MessageDigest sha = Digest.sha256();
        long received = 0;
        try (InputStream body = registry.blob(ref.name(), want); OutputStream out = Files.newOutputStream(to)) {
            byte[] buffer = new byte[64 * 1024];
            while (received <= d.size()) {
                int n;
                try {
                    n = body.read(buffer, 0, (int) Math.min(buffer.length, d.size() + 1 - received));
                } catch (IOException e) { // the network, not the disk: writes below fail as LOCAL
                    throw new BundleFailure(subject, BundleFailure.Reason.SIZE_MISMATCH, "the download of its " + what
                            + " broke off after " + received + " of " + d.size() + " bytes (" + HttpRegistry.describe(e) + ")", e);
                }
                if (n < 0) {
                    break;
                }
                sha.update(buffer, 0, n);
                out.write(buffer, 0, n);
                received += n;
            }
        }
        if (received != d.size()) {
            throw new BundleFailure(subject, BundleFailure.Reason.SIZE_MISMATCH, "its " + what + " arrived with "
                    + (received > d.size() ? "more than " + d.size() : received + " of " + d.size()) + " bytes the manifest gives");
        }
        Digest got = Digest.of(sha);
        if (!got.equals(want)) {
            throw new BundleFailure(subject, BundleFailure.Reason.DIGEST_MISMATCH, "its " + what
                    + " arrived with digest " + got + ", not the " + want + " its manifest gives");
        }
    }

    /** The config's entrypoint, which must be a file inside the unpacked bundle; the target is removed if not. */
    private static Path entrypoint(Path target, BundleManifest.Config config, String subject) {
        String path = BundleEntryCheck.normalize(config.entrypoint());
        Path file = path == null || path.equals(".") ? null : target.resolve(path);
        if (file == null || !Files.isRegularFile(file) || !file.toAbsolutePath().normalize().startsWith(target.toAbsolutePath().normalize())) {
            BundleUnpack.deleteTree(target);
            throw new BundleFailure(subject, BundleFailure.Reason.NOT_A_BUNDLE,
                    "its entrypoint '" + config.entrypoint() + "' is not a file in the bundle");
        }
        return file;
    }
}
