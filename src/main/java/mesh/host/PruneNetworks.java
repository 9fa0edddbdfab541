package mesh.host;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.Map;
import mesh.docker.Engine;
import mesh.plan.NetworkPrune;

/**
 * PruneNetworks removes the networks of modules nothing of which remains on this node ({@link NetworkPrune}),
 * never a volume. A network whose removal the engine refuses (something foreign is attached) is said once,
 * not every pass, until it is removed.
 */
final class PruneNetworks implements PassStep {

    private final Function<String, Map<String, String>> networks;
    private final Consumer<String> remove;
    private final AgentState state;
    private final Consumer<String> info;
    private final Consumer<String> warn;
    private final Set<String> kept = ConcurrentHashMap.newKeySet();

    /** {@code networks}: the engine's networks of a node ({@link Engine#networks}); {@code remove}: removes one. */
    PruneNetworks(Function<String, Map<String, String>> networks, Consumer<String> remove, AgentState state,
                  Consumer<String> info, Consumer<String> warn) {
        this.networks = networks;
        this.remove = remove;
        this.state = state;
        this.info = info;
        this.warn = warn;
    }

    @Override
    public void run(Context pass) {
        for (String network : NetworkPrune.leftOver(networks.apply(pass.declaration.node()), pass.declaration,
                state.lastObserved)) {
            try {
                remove.accept(network);
                kept.remove(network);
                info.accept("removed network " + network + ": nothing of its module remains on this node");
            } catch (RuntimeException e) {
                if (kept.add(network)) {
                    warn.accept("kept network " + network + ": " + e.getMessage());
                }
            }
        }
    }
}
