package mesh.bundle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;

/**
 * CraftedBundle pushes a bundle whose layer a test writes entry by entry, including what an honest
 * push never writes ("../x", absolute paths, links out, bombs), straight through the registry API.
 */
public final class CraftedBundle {

    /** Raw is one tar entry as written: name, tar type flag, content (files) or link target (links). */
    public record Raw(String name, byte type, byte[] content, String link) {
        public static Raw file(String name, byte[] content) {
            return new Raw(name, TarConstants.LF_NORMAL, content, null);
        }

        public static Raw symlink(String name, String target) {
            return new Raw(name, TarConstants.LF_SYMLINK, null, target);
        }

        public static Raw hardlink(String name, String target) {
            return new Raw(name, TarConstants.LF_LINK, null, target);
        }
    }

    private CraftedBundle() {
    }

    public static byte[] layer(Raw... entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GzipCompressorOutputStream(bytes))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Raw r : entries) {
                TarArchiveEntry e = new TarArchiveEntry(r.name(), r.type(), true); // true: keep '/' and '..' as written
                if (r.link() != null) {
                    e.setLinkName(r.link());
                }
                if (r.content() != null) {
                    e.setSize(r.content().length);
                    e.setMode(0100755);
                }
                tar.putArchiveEntry(e);
                if (r.content() != null) {
                    tar.write(r.content());
                }
                tar.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }

    /** Pushes {@code layer} with a config whose entrypoint is {@code entrypoint}; returns NAME@sha256:…. */
    public static BundleRef push(Registry registry, String name, String entrypoint, byte[] layer, long declaredLayerSize)
            throws IOException {
        Path tmp = Files.createTempFile("crafted", ".blob");
        try {
            Digest layerDigest = Digest.of(layer);
            Files.write(tmp, layer);
            registry.pushBlob(name, layerDigest, layer.length, tmp);
            byte[] config = BundleManifest.write(new BundleManifest.Config(name, entrypoint));
            Digest configDigest = Digest.of(config);
            registry.pushBlob(name, configDigest, config);
            byte[] manifest = BundleManifest.of(
                    new BundleManifest.Descriptor(BundleManifest.CONFIG_TYPE, configDigest.toString(), config.length),
                    new BundleManifest.Descriptor(BundleManifest.LAYER_TYPE, layerDigest.toString(), declaredLayerSize)).bytes();
            registry.putManifest(name, "crafted", manifest);
            return new BundleRef(name, "crafted", Digest.of(manifest));
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    public static BundleRef push(Registry registry, String name, String entrypoint, Raw... entries) throws IOException {
        byte[] layer = layer(entries);
        return push(registry, name, entrypoint, layer, layer.length);
    }
}
