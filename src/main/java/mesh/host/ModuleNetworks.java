package mesh.host;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import mesh.docker.Engine;
import mesh.model.Cidr;
import mesh.model.Labels;
import mesh.plan.NetworkRange;
import mesh.plan.NetworkRange.HostNet;

/**
 * ModuleNetworks makes the module networks one apply needs, each on the subnet {@link NetworkRange} picks
 * from the node's range. It reads the engine's networks and the node's addresses and routes once, at the
 * first network that is missing (a pass that creates none asks nothing more than before), and counts what
 * it made since, so the networks of one apply never share a slot. One per apply; not thread-safe (the
 * apply prepares its networks in turn). When another writer wins a race for a slot the engine refuses the
 * overlapping pool and the component fails with that reason; the next pass reads again.
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

    /** Makes {@code network} for {@code module} on its own subnet unless the engine has it (then it is left as it is). */
    void ensure(String network, String node, String module) {
        if (layout == null) {
            layout = new HashMap<>(engine.networkSubnets());
            hostNets = host.get();
        }
        if (layout.containsKey(network)) {
            return;
        }
        List<Cidr> engineSubnets = new ArrayList<>();
        layout.values().forEach(engineSubnets::addAll);
        Cidr subnet = NetworkRange.pick(range, network, module, NetworkRange.taken(engineSubnets, hostNets));
        engine.ensureNetwork(network, Labels.forVolume(node, module), subnet);
        layout.put(network, List.of(subnet));
    }
}
