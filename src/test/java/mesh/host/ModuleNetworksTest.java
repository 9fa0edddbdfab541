package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.docker.Engine;
import mesh.docker.EngineFailure;
import mesh.model.Cidr;
import mesh.plan.NetworkRange;
import mesh.plan.NetworkRange.HostNet;
import org.junit.jupiter.api.Test;

/** ModuleNetworksTest: the edge asks the engine once, leaves what exists, and moves on when another writer took the slot. */
class ModuleNetworksTest {

    /** FakeEngine holds networks by name; {@code thief} is a network another writer makes just before our first create. */
    static final class FakeEngine {
        final Map<String, List<Cidr>> networks = new TreeMap<>();
        final List<String> calls = new ArrayList<>();
        Map.Entry<String, Cidr> thief;

        Engine engine() {
            return (Engine) Proxy.newProxyInstance(Engine.class.getClassLoader(), new Class<?>[] {Engine.class}, (p, m, args) -> {
                calls.add(m.getName());
                switch (m.getName()) {
                    case "networkSubnets" -> {
                        return Map.copyOf(networks);
                    }
                    case "ensureNetwork" -> {
                        Cidr subnet = (Cidr) args[2];
                        if (thief != null) {
                            networks.put(thief.getKey(), List.of(thief.getValue()));
                            thief = null;
                        }
                        if (networks.values().stream().flatMap(List::stream).anyMatch(subnet::overlaps)) {
                            throw new EngineFailure("ensure network " + args[0] + " failed: Pool overlaps with other one on this address space", null);
                        }
                        networks.put((String) args[0], List.of(subnet));
                        return true;
                    }
                    default -> throw new UnsupportedOperationException(m.getName());
                }
            });
        }
    }

    static Cidr net(String text) {
        return Cidr.parse(text, "t");
    }

    @Test
    void newNetworksGetDistinctSlotsFromOneLookAndAnExistingOneIsLeftAsItIs() {
        FakeEngine fake = new FakeEngine();
        fake.networks.put("bridge", List.of(net("172.17.0.0/16")));
        fake.networks.put("old", List.of(net("172.18.0.0/16")));
        ModuleNetworks made = new ModuleNetworks(fake.engine(), NetworkRange.DEFAULT,
                () -> List.of(HostNet.route("wg0", net("10.213.0.0/26"))));
        made.ensure("old", "n1", "old");
        made.ensure("a", "n1", "a");
        made.ensure("b", "n1", "b");
        made.ensure("a", "n1", "a");
        assertEquals(List.of(net("10.213.0.64/26")), fake.networks.get("a"));
        assertEquals(List.of(net("10.213.0.128/26")), fake.networks.get("b"));
        assertEquals(List.of(net("172.18.0.0/16")), fake.networks.get("old"));
        assertEquals(List.of("networkSubnets", "ensureNetwork", "ensureNetwork"), fake.calls);
    }

    @Test
    void aSlotTakenByAnotherWriterMeanwhileIsPassedOver() {
        FakeEngine fake = new FakeEngine();
        fake.thief = Map.entry("theirs", net("10.213.0.0/26"));
        new ModuleNetworks(fake.engine(), NetworkRange.DEFAULT, List::of).ensure("a", "n1", "a");
        assertEquals(List.of(net("10.213.0.64/26")), fake.networks.get("a"));
    }

    @Test
    void aFullRangeFailsTheNetworkNamingTheRangeAndTheModule() {
        FakeEngine fake = new FakeEngine();
        fake.networks.put("x", List.of(net("10.5.0.0/26")));
        var full = assertThrows(NetworkRange.Exhausted.class,
                () -> new ModuleNetworks(fake.engine(), net("10.5.0.0/26"), List::of).ensure("m8", "n1", "m8"));
        assertEquals(true, full.getMessage().startsWith("no free /26 left in MESH_HOST_NETWORKS 10.5.0.0/26 for network m8 of module m8"));
    }
}
