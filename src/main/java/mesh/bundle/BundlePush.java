package mesh.bundle;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * BundlePush publishes a file or folder to the artifact store as a bundle (layer, config, manifest,
 * tag) and lists the bundles the store holds. Blobs the store already has are not sent again, so
 * pushing the same content twice sends one small manifest and gives the same digest.
 */
public final class BundlePush {

    /** Pushed is one published bundle; {@code reference} ({@code NAME@sha256:…}) is what manifests and fetches name. */
    public record Pushed(String name, String tag, String digest, String reference, String entrypoint, long layerBytes,
            int entries) {
    }

    /** Listed is one tag of a bundle in the store and the digest it names now. */
    public record Listed(String name, String tag, String digest, String reference) {
    }

    private final Registry registry;
    private final BundleLimits limits;

    public BundlePush(Registry registry, BundleLimits limits) {
        this.registry = registry;
        this.limits = limits;
    }

    /**
     * Pushes {@code source} as bundle {@code ref} (its tag; a digest is not allowed). The entrypoint
     * is {@code entrypoint} when given, else the file itself, else a folder's only executable at its top.
     */
    public Pushed push(Path source, BundleRef ref, String entrypoint) {
        return push(source, ref, entrypoint, path -> false);
    }

    /** As {@link #push(Path, BundleRef, String)}, without the entries whose path (relative, '/'-separated) {@code leaveOut} names. */
    public Pushed push(Path source, BundleRef ref, String entrypoint, java.util.function.Predicate<String> leaveOut) {
        try {
            return pushAs(BundleFailure.subject(ref), source, ref, entrypoint, leaveOut);
        } catch (BundleFailure e) {
            throw e.about(BundleFailure.subject(ref));
        }
    }

    private Pushed pushAs(String subject, Path source, BundleRef ref, String entrypoint, java.util.function.Predicate<String> leaveOut) {
        if (ref.pinned()) {
            throw new BundleFailure(subject, BundleFailure.Reason.INPUT, "a push names a tag (NAME[:TAG]), not a digest");
        }
        if (!Files.exists(source, LinkOption.NOFOLLOW_LINKS)) {
            throw new BundleFailure(subject, BundleFailure.Reason.INPUT, source + " does not exist");
        }
        Path layerFile = null;
        try {
            List<BundleTar.Item> items = new java.util.ArrayList<>(BundleTar.items(source));
            items.removeIf(i -> leaveOut.test(i.path()));
            String entry = entrypoint(items, Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS), entrypoint, subject);
            layerFile = Files.createTempFile("mesh-bundle", ".tar.gz");
            MessageDigest sha = Digest.sha256();
            BundleEntryCheck check = new BundleEntryCheck(limits);
            // buffered: gzip hands its output on in pieces of 512 bytes
            try (OutputStream out = new DigestOutputStream(new BufferedOutputStream(Files.newOutputStream(layerFile), 1 << 16), sha)) {
                BundleTar.write(items, check, out);
            } catch (IllegalArgumentException e) {
                throw new BundleFailure(subject, BundleFailure.Reason.UNSAFE_ENTRY, source + " cannot be a bundle: " + e.getMessage());
            }
            Digest layerDigest = Digest.of(sha);
            long layerSize = Files.size(layerFile);
            byte[] config = BundleManifest.write(new BundleManifest.Config(ref.name(), entry));
            Digest configDigest = Digest.of(config);
            BundleManifest manifest = BundleManifest.of(
                    new BundleManifest.Descriptor(BundleManifest.CONFIG_TYPE, configDigest.toString(), config.length),
                    new BundleManifest.Descriptor(BundleManifest.LAYER_TYPE, layerDigest.toString(), layerSize));
            byte[] manifestBytes = manifest.bytes();
            Digest digest = Digest.of(manifestBytes);

            registry.ping();
            if (!registry.hasBlob(ref.name(), layerDigest)) {
                registry.pushBlob(ref.name(), layerDigest, layerSize, layerFile);
            }
            if (!registry.hasBlob(ref.name(), configDigest)) {
                registry.pushBlob(ref.name(), configDigest, config);
            }
            Digest stored = registry.putManifest(ref.name(), ref.tag(), manifestBytes);
            if (stored != null && !stored.equals(digest)) {
                throw new BundleFailure(subject, BundleFailure.Reason.DIGEST_MISMATCH, "the artifact store stored its manifest as "
                        + stored + ", not as the " + digest + " that was sent");
            }
            return new Pushed(ref.name(), ref.tag(), digest.toString(), ref.pinnedTo(digest).toString(), entry, layerSize,
                    check.entries());
        } catch (IOException e) {
            throw new BundleFailure(subject, BundleFailure.Reason.LOCAL, "cannot read " + source + ": " + e.getMessage(), e);
        } finally {
            BundleUnpack.deleteTree(layerFile);
        }
    }

    /** The entrypoint a push records; see {@link #push}. */
    static String entrypoint(List<BundleTar.Item> items, boolean folder, String given, String subject) {
        if (given != null) {
            String path = BundleEntryCheck.normalize(given);
            BundleTar.Item item = items.stream().filter(i -> i.path().equals(path)).findFirst().orElse(null);
            if (item == null || item.kind() != BundleEntryCheck.Kind.FILE) {
                throw new BundleFailure(subject, BundleFailure.Reason.INPUT, "the entrypoint '" + given + "' is not a file in the bundle");
            }
            return runnable(item, subject);
        }
        if (!folder) {
            return runnable(items.get(0), subject);
        }
        List<String> executables = items.stream()
                .filter(i -> i.kind() == BundleEntryCheck.Kind.FILE && !i.path().contains("/") && Files.isExecutable(i.source()))
                .map(BundleTar.Item::path).toList();
        if (executables.size() != 1) {
            throw new BundleFailure(subject, BundleFailure.Reason.INPUT, "say which file runs (--entrypoint PATH): the folder holds "
                    + (executables.isEmpty() ? "no executable file at its top" : executables.size() + " executables at its top, " + executables));
        }
        return executables.get(0);
    }

    /**
     * The entrypoint's path, when its file may be run: without an execute bit the bundle is stored
     * (its mode is kept, BundleTar) but its process can never start, so it is refused at the push,
     * naming the file, rather than at every node that would run it.
     */
    private static String runnable(BundleTar.Item item, String subject) {
        if (!Files.isExecutable(item.source())) {
            throw new BundleFailure(subject, BundleFailure.Reason.INPUT, item.source() + " is not executable, so it could"
                    + " never run as the bundle's entrypoint; 'chmod +x " + item.source() + "' first");
        }
        return item.path();
    }

    /** Every tag of every bundle in the store, by name and tag; repositories that hold images or other artifacts are left out. */
    public List<Listed> list() {
        List<Listed> all = new ArrayList<>();
        for (String name : registry.repositories()) {
            for (String tag : registry.tags(name)) {
                try {
                    BundleRef pinned = BundleFetch.resolve(registry, new BundleRef(name, tag, null));
                    all.add(new Listed(name, tag, pinned.digest().toString(), pinned.toString()));
                } catch (BundleFailure e) {
                    if (e.reason() != BundleFailure.Reason.NOT_A_BUNDLE && e.reason() != BundleFailure.Reason.NOT_FOUND) {
                        throw e;
                    }
                }
            }
        }
        all.sort(Comparator.comparing(Listed::name).thenComparing(Listed::tag));
        return all;
    }
}
