package mesh.bundle;

/**
 * BundleLimits bounds what one bundle may unpack to, so a hostile or broken layer (a gzip bomb,
 * millions of empty files) is refused before it fills the node's disk or inode table. The
 * compressed layer and the manifest are bounded too, before they are downloaded.
 */
public record BundleLimits(long maxBytes, int maxEntries) {

    /** 1 GiB and 10,000 entries: the controller's own bundle is about 100 MiB in a few hundred files. */
    public static final BundleLimits DEFAULT = new BundleLimits(1L << 30, 10_000);

    /** A manifest or config larger than this is not a bundle's (OCI registries accept 4 MiB manifests). */
    static final long MAX_MANIFEST_BYTES = 4L << 20;

    public BundleLimits {
        if (maxBytes <= 0 || maxEntries <= 0) {
            throw new IllegalArgumentException("bundle limits must be positive: " + maxBytes + " bytes, " + maxEntries + " entries");
        }
    }
}
