package mesh.host;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import mesh.docker.Engine;
import mesh.docker.EngineFailure;
import mesh.model.Cidr;
import mesh.model.Labels;
import mesh.plan.NetworkRange;
import mesh.plan.NetworkRange.HostNet;

/**
 * ModuleNetworks makes the module networks one apply needs, each on the subnet {@link NetworkRange} picks
 * from the node's range. It reads the engine's networks and the node's addresses and routes once per apply,
 * at the first container it creates on a network (an apply that creates none asks nothing), and counts what
 * it made since, so the networks of one apply never share a slot. One per apply; not thread-safe (the
 * apply prepares its networks in turn). Another agent or test on the same engine may win a race for a
 * slot: the engine refuses the overlapping pool, and {@link #ensure} reads again and moves on.
 */
final class ModuleNetworks {

    private final Engine engine;
    private final Cidr range;
    private final Supplier<List<HostNet>> host;
    private Map<String, List<Cidr>> layout;
    private List<HostNet> hostNets;

    ModuleNetworks(Engine engine, Cidr range, Supplier<List<HostNet>> host) {
        this.engine = engine;
        this.range = range;
        this.host = host;
    }

    /**
     * Makes {@code network} for {@code module} on its own subnet unless the engine has it (then it is left as
     * it is). When the engine refuses, the layout is read again: if another writer made the network meanwhile,
     * that is the network; if it took the slot, the next free slot is tried (up to {@value #ATTEMPTS} times);
     * otherwise the engine's refusal is the answer.
     */
    void ensure(String network, String node, String module) {
        if (layout == null) {
            read();
        }
        for (int attempt = 1; ; attempt++) {
            if (layout.containsKey(network)) {
                return;
            }
            Cidr subnet = NetworkRange.pick(range, network, module, NetworkRange.taken(engineSubnets(), hostNets));
            try {
                engine.ensureNetwork(network, Labels.forVolume(node, module), subnet);
                layout.put(network, List.of(subnet));
                return;
            } catch (EngineFailure refused) {
                read();
                boolean raced = layout.containsKey(network) || engineSubnets().stream().anyMatch(subnet::overlaps);
                if (!raced || attempt == ATTEMPTS) {
                    throw refused;
                }
            }
        }
    }

    static final int ATTEMPTS = 3;

    private void read() {
        layout = new HashMap<>(engine.networkSubnets());
        hostNets = host.get();
    }

    private List<Cidr> engineSubnets() {
        List<Cidr> all = new ArrayList<>();
        layout.values().forEach(all::addAll);
        return all;
    }
}
