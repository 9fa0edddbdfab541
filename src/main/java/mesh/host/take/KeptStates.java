package mesh.host.take;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * KeptStates is what a take keeps per file between its passes (SHA-256 checkpoints, {@link ShaStates} on the target and
 * {@link Checkpoints} on the source), by path, bounded by the number of states held in all: past {@code max}, the
 * least recently used files are dropped (a dropped file is hashed whole, as before checkpoints were kept).
 */
final class KeptStates<V> {

    private final Map<String, V> kept = new LinkedHashMap<>(16, 0.75f, true);
    private final ToIntFunction<V> states;
    private final long max;
    private long held;

    KeptStates(ToIntFunction<V> states, long max) {
        this.states = states;
        this.max = max;
    }

    synchronized V get(Path file) {
        return kept.get(file.toString());
    }

    /** Keeps {@code v} for its file, dropping the least recently used files past the bound. */
    synchronized void put(Path file, V v) {
        V old = kept.put(file.toString(), v);
        held += states.applyAsInt(v) - (old == null ? 0 : states.applyAsInt(old));
        var eldest = kept.entrySet().iterator();
        while (held > max && eldest.hasNext()) {
            held -= states.applyAsInt(eldest.next().getValue());
            eldest.remove();
        }
    }

    synchronized void remove(Path file) {
        V old = kept.remove(file.toString());
        held -= old == null ? 0 : states.applyAsInt(old);
    }
}
