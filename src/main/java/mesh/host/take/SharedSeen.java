package mesh.host.take;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SharedSeen keeps, by module, the inodes of the files seen mapped shared and writable during its take
 * ({@link SharedWrites}), so that every pass sends them whatever their size and time say (docs/take.md, "The verify's
 * hashes"). They are looked for at every pass's index and at the fence, before the module stops: a mapping made after
 * one of those looks sets the file's time with its first store, so the next pass sends the file by its time anyway.
 */
final class SharedSeen {

    private final Map<String, Set<Long>> seen = new ConcurrentHashMap<>();

    /** Adds the files mapped shared and writable now to those seen during the module's take; returns them all. */
    Set<Long> look(String module) {
        Set<Long> kept = seen.computeIfAbsent(module, m -> ConcurrentHashMap.newKeySet());
        kept.addAll(SharedWrites.now());
        return Set.copyOf(kept);
    }

    /** Forgets them: the module's fence was lifted, it runs here again. */
    void forget(String module) {
        seen.remove(module);
    }
}
