package mesh.host.backup;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import mesh.bundle.Digest;
import mesh.bundle.Registry;

/**
 * ChunkStream reads a chunked content ({@link Chunks}) back as one stream: its chunks' blobs one after the other, in
 * the config's order, each read to exactly the size the config gives it. A chunk whose blob is shorter or longer stops
 * the read naming the file and the chunk; so does a chunk whose sha256 is not the config's. A verify reads a chunked
 * file through it (and hashes the whole, for the manifest's sha256); a restore writes one a few chunks at once
 * ({@link ChunkedWrite}). The next chunk's request goes out when the one before ends: one round trip per
 * {@link Chunks#SIZE}, a few milliseconds for 64 MiB.
 */
final class ChunkStream extends InputStream {

    private final Registry registry;
    private final String repository;
    private final List<BackupArtifact.Chunk> chunks;
    private final String file;
    private int at = -1;
    private InputStream current;
    private long left;
    private MessageDigest sha;

    ChunkStream(Registry registry, String repository, BackupArtifact.Chunked chunked, String file) {
        this.registry = registry;
        this.repository = repository;
        this.chunks = chunked.chunks();
        this.file = file;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (true) {
            if (current == null) {
                if (at + 1 >= chunks.size()) {
                    return -1;
                }
                open(at + 1);
            }
            if (left == 0) {
                ended();
                continue;
            }
            int n;
            try {
                n = current.read(b, off, (int) Math.min(len, left));
            } catch (IOException e) {   // a blob shorter than its length: the registry's own "Premature EOF", say
                throw broken("its blob could not be read to its end (" + e.getMessage() + ")", e);
            }
            if (n < 0) {
                throw broken("its blob ends " + left + " bytes early", null);
            }
            sha.update(b, off, n);
            left -= n;
            return n;
        }
    }

    private void open(int chunk) {
        at = chunk;
        BackupArtifact.Chunk c = chunks.get(chunk);
        current = BackupFetch.blob(registry, repository, c.sha256(), file + " (chunk " + (chunk + 1) + " of " + chunks.size() + ")");
        left = c.size();
        sha = Digest.sha256();
    }

    /** The chunk was read to its size: its blob must end there, and be the config's content. */
    private void ended() throws IOException {
        BackupArtifact.Chunk c = chunks.get(at);
        boolean longer = current.read() >= 0;
        current.close();
        current = null;
        if (longer) {
            throw broken("its blob is longer than the " + c.size() + " bytes the backup's config says", null);
        }
        String found = HexFormat.of().formatHex(sha.digest());
        if (!found.equals(c.sha256())) {
            throw broken("its content in the registry differs from the backup's config (sha256 "
                    + BackupRestore.short12(found) + "; the config says " + BackupRestore.short12(c.sha256()) + ")", null);
        }
    }

    private BackupBroken broken(String why, Throwable cause) {
        return new BackupBroken(file + ": chunk " + (at + 1) + " of " + chunks.size() + " (bytes from "
                + (long) at * Chunks.SIZE + "): " + why, cause);
    }

    @Override
    public void close() throws IOException {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
