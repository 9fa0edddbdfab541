package mesh.host.backup;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import mesh.bundle.BundleFailure;
import mesh.bundle.Digest;
import mesh.bundle.Registry;

/** MemoryRegistry is a registry's blobs in memory, for the backup's unit tests: it checks digests as Distribution does. */
final class MemoryRegistry implements Registry {

    final Map<Digest, byte[]> blobs = new ConcurrentHashMap<>();
    final AtomicInteger pushed = new AtomicInteger();

    @Override
    public String address() {
        return "memory";
    }

    @Override
    public void ping() {
    }

    @Override
    public boolean hasBlob(String name, Digest digest) {
        return blobs.containsKey(digest);
    }

    @Override
    public void pushBlob(String name, Digest digest, long size, Path file) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void pushBlob(String name, Digest digest, long size, InputStream in) {
        try {
            byte[] b = in.readNBytes(Math.toIntExact(size));
            pushBlob(name, digest, b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Digest pushBlobHashed(String name, long size, InputStream in) {
        try {
            byte[] b = in.readNBytes(Math.toIntExact(size));
            pushBlob(name, Digest.of(b), b);
            return Digest.of(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean deleteManifest(String name, Digest digest) {
        return false;
    }

    @Override
    public void pushBlob(String name, Digest digest, byte[] content) {
        if (!Digest.of(content).equals(digest)) {
            throw new BundleFailure(name, BundleFailure.Reason.REGISTRY, "DIGEST_INVALID: provided digest did not match uploaded content");
        }
        pushed.incrementAndGet();
        blobs.put(digest, content);
    }

    @Override
    public Digest putManifest(String name, String tag, byte[] manifest) {
        throw new UnsupportedOperationException();
    }

    @Override
    public InputStream manifest(String name, String reference) {
        throw new UnsupportedOperationException();
    }

    @Override
    public InputStream blob(String name, Digest digest) {
        byte[] b = blobs.get(digest);
        if (b == null) {
            throw new BundleFailure(name, BundleFailure.Reason.NOT_FOUND, "not found in memory");
        }
        return new ByteArrayInputStream(b);
    }

    @Override
    public List<String> repositories() {
        return List.of();
    }

    @Override
    public List<String> tags(String name) {
        return List.of();
    }
}
