package mesh.host.take;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * TakeState is what this node keeps of the takes of one module, one file per module under
 * {@code <state-dir>/take/} (written durably before the agent acts on it, so a restarted agent honours it):
 *
 * @param module    the module
 * @param epoch     the newest take epoch any call about this module brought here; older ones are refused
 * @param fence     the fence that keeps the module stopped here, or null
 * @param tickets   the sha256 (hex) of each read ticket handed out under the current fence
 * @param copies    volume to the take that made (or is making) its copy here
 * @param oldCopies volume to the take that left it here as the old copy, after its module moved away
 * @param liveTickets the sha256 (hex) of each read ticket of the pre-copy at {@code epoch}, valid while no fence stands
 */
public record TakeState(String module, long epoch, Fence fence, List<String> tickets, Map<String, Mark> copies,
                        Map<String, Mark> oldCopies, List<String> liveTickets) {

    public TakeState(String module, long epoch, Fence fence, List<String> tickets, Map<String, Mark> copies,
                     Map<String, Mark> oldCopies) {
        this(module, epoch, fence, tickets, copies, oldCopies, List.of());
    }

    public TakeState {
        tickets = tickets == null ? List.of() : List.copyOf(tickets);
        liveTickets = liveTickets == null ? List.of() : List.copyOf(liveTickets);
        copies = copies == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(copies));
        oldCopies = oldCopies == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(oldCopies));
    }

    /** The state of a module no take has touched here. */
    public static TakeState none(String module) {
        return new TakeState(module, 0, null, List.of(), Map.of(), Map.of());
    }

    /**
     * Fence is a standing fence: the take epoch it was set at and when (ISO-8601); {@code created}: set by a take's
     * target to create the module's containers before the source's fence, started only once the start lifts it
     * ({@link TakeRules#fenceToCreate}; false in records written before it existed).
     */
    public record Fence(long epoch, String since, boolean created) {

        public Fence(long epoch, String since) {
            this(epoch, since, false);
        }
    }

    /** Mark is a take's mark on a volume: its epoch and the volume's kind ({@code container|process}). */
    public record Mark(long epoch, String kind) {
    }

    public boolean fenced() {
        return fence != null;
    }

    TakeState with(long epoch, Fence fence, List<String> tickets, Map<String, Mark> copies, Map<String, Mark> oldCopies) {
        return new TakeState(module, epoch, fence, tickets, copies, oldCopies, liveTickets);
    }

    TakeState withLive(List<String> next) {
        return new TakeState(module, epoch, fence, tickets, copies, oldCopies, next);
    }
}
