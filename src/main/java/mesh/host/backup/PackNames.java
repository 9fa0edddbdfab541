package mesh.host.backup;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * PackNames remembers, for the packs this agent uploaded, the digest each pack's name ({@link Packs#key}) stands for,
 * so the next backup of unchanged small files asks the registry for each pack by its digest without reading the files
 * again. A name is a pure function of the pack's contents, so a remembered digest is never stale; it may only be gone
 * from the registry, which the backup asks first. In memory, as the take's {@link mesh.host.take.HashCache} is: an
 * agent's first backup after a start reads its small files once more. Bounded: the least recently used are forgotten
 * past {@link #MOST} (about 150 bytes each).
 */
final class PackNames {

    static final int MOST = 8192;

    private final Map<String, String> digests = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > MOST;
        }
    };

    /** The digest (sha256 hex) of the pack named {@code key}, or null when this agent has not made it. */
    synchronized String digest(String key) {
        return digests.get(key);
    }

    synchronized void made(String key, String sha256) {
        digests.put(key, sha256);
    }
}
