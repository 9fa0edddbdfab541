package mesh.plan;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;

/**
 * NetworkPrune decides which of the mesh's networks on a node are left over: a network the mesh made
 * for a module (labelled with the node and the module) goes when nothing of that module remains on the
 * node, neither declared nor running, and no declared component still names it. Only networks; a
 * volume is never removed by an apply (docs/design.md, invariant 8). Pure.
 */
public final class NetworkPrune {

    private NetworkPrune() {
    }

    /**
     * The networks to remove, from the node's mesh networks (name → module label), what {@code d}
     * declares and what was observed after the apply.
     */
    public static List<String> leftOver(Map<String, String> networks, Declaration d, List<ObservedContainer> observed) {
        Set<String> modules = new HashSet<>();
        Set<String> named = new HashSet<>();
        for (ComponentSpec c : d.components()) {
            modules.add(c.module());
            if (c.network() != null) {
                named.add(c.network());
            }
        }
        observed.forEach(o -> modules.add(o.module()));
        return networks.entrySet().stream()
                .filter(n -> !named.contains(n.getKey()) && !modules.contains(n.getValue()))
                .map(Map.Entry::getKey).sorted().toList();
    }
}
