package mesh.host.backup;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ChunkNames remembers, for the chunked contents this agent sent ({@link ChunkedUpload}), the chunks each content's
 * sha256 stands for, so the next backup of an unchanged large file asks the registry for each chunk by its digest
 * without reading the file again. The cut is fixed ({@link Chunks}), so a content's chunks are a pure function of its
 * bytes and a remembered list is never stale; a chunk may only be gone from the registry, which the backup asks first.
 * In memory, as {@link PackNames} and the take's {@link mesh.host.take.HashCache} are: an agent's first backup after a
 * start reads its large files once more, to cut and hash their chunks. Bounded: the least recently used are forgotten
 * past {@link #MOST} contents (a 2 GB file's 32 chunks are about 4 KB).
 */
final class ChunkNames {

    static final int MOST = 1024;

    private final Map<String, List<BackupArtifact.Chunk>> chunks = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<BackupArtifact.Chunk>> eldest) {
            return size() > MOST;
        }
    };

    /** The chunks of the content {@code sha256} (hex), in order, or null when this agent has not cut it. */
    synchronized List<BackupArtifact.Chunk> chunks(String sha256) {
        return chunks.get(sha256);
    }

    synchronized void cut(String sha256, List<BackupArtifact.Chunk> list) {
        chunks.put(sha256, List.copyOf(list));
    }
}
