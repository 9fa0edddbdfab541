package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import mesh.docker.DockerEngine;
import mesh.docker.Engine;
import mesh.model.Cidr;
import mesh.plan.NetworkRange;
import mesh.plan.NetworkRange.HostNet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ModuleNetworksIT: on the root Docker engine, the agent's module networks ask the engine once per apply, leave a network
 * that exists as it is, and move on to the next slot when another writer took theirs between the look and the create
 * (the engine's own refusal, "Pool overlaps"). The range is one no other test uses (10.250.192.0/24: four /26 slots);
 * every network made here is named after this run and removed after each test.
 */
class ModuleNetworksIT {

    static final Cidr RANGE = net("10.250.192.0/24");

    final String run = "mnet-" + UUID.randomUUID().toString().substring(0, 8);
    DockerEngine docker;
    /** The engine's methods ModuleNetworks called, in order (the engine itself does the work). */
    final List<String> calls = new ArrayList<>();

    @BeforeEach
    void engine() {
        docker = new DockerEngine(EngineFixture.ENGINE);
    }

    @AfterEach
    void removeThisRunsNetworks() throws Exception {
        for (String name : docker.networkSubnets().keySet()) {
            if (name.startsWith(run)) {
                docker.removeNetwork(name);
            }
        }
        docker.close();
    }

    static Cidr net(String text) {
        return Cidr.parse(text, "t");
    }

    String name(String suffix) {
        return run + "-" + suffix;
    }

    /** The real engine, each call noted; {@code before} runs ahead of the first ensureNetwork (another writer's create). */
    Engine watched(Runnable before) {
        Runnable[] once = {before};
        return (Engine) Proxy.newProxyInstance(Engine.class.getClassLoader(), new Class<?>[] {Engine.class}, (p, m, args) -> {
            calls.add(m.getName());
            if (m.getName().equals("ensureNetwork") && once[0] != null) {
                Runnable r = once[0];
                once[0] = null;
                r.run();
            }
            try {
                return m.invoke(docker, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    @Test
    void newNetworksGetDistinctSlotsFromOneLookAndAnExistingOneIsLeftAsItIs() {
        docker.ensureNetwork(name("old"), Map.of(), net("10.250.192.192/26"));
        ModuleNetworks made = new ModuleNetworks(watched(null), RANGE,
                () -> List.of(HostNet.route("wg0", net("10.250.192.0/26"))));
        made.ensure(name("old"), "n1", "old");
        made.ensure(name("a"), "n1", "a");
        made.ensure(name("b"), "n1", "b");
        made.ensure(name("a"), "n1", "a");
        Map<String, List<Cidr>> now = docker.networkSubnets();
        assertEquals(List.of(net("10.250.192.64/26")), now.get(name("a")), "a: the first slot past the node's route");
        assertEquals(List.of(net("10.250.192.128/26")), now.get(name("b")), "b: the next, from the same look");
        assertEquals(List.of(net("10.250.192.192/26")), now.get(name("old")), "the network that was there, as it was");
        assertEquals(List.of("networkSubnets", "ensureNetwork", "ensureNetwork"), calls, "one look, two creates");
    }

    @Test
    void aSlotTakenByAnotherWriterMeanwhileIsPassedOver() {
        Engine engine = watched(() -> docker.ensureNetwork(name("theirs"), Map.of(), net("10.250.192.0/26")));
        new ModuleNetworks(engine, RANGE, List::of).ensure(name("a"), "n1", "a");
        Map<String, List<Cidr>> now = docker.networkSubnets();
        assertEquals(List.of(net("10.250.192.0/26")), now.get(name("theirs")));
        assertEquals(List.of(net("10.250.192.64/26")), now.get(name("a")), "refused by the engine, then the next slot");
        assertEquals(List.of("networkSubnets", "ensureNetwork", "networkSubnets", "ensureNetwork"), calls);
    }

    @Test
    void aFullRangeFailsTheNetworkNamingTheRangeAndTheModule() {
        docker.ensureNetwork(name("x"), Map.of(), net("10.250.192.0/26"));
        var full = assertThrows(NetworkRange.Exhausted.class,
                () -> new ModuleNetworks(watched(null), net("10.250.192.0/26"), List::of).ensure(name("m8"), "n1", "m8"));
        assertTrue(full.getMessage().startsWith("no free /26 left in MESH_HOST_NETWORKS 10.250.192.0/26 for network "
                + name("m8") + " of module m8"), full.getMessage());
        assertEquals(List.of("networkSubnets"), calls, "nothing asked of the engine but its networks");
    }
}
