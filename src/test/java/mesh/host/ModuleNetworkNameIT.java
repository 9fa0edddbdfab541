package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.model.ContainerNetwork;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import mesh.docker.DockerEngine;
import mesh.model.Declaration;
import mesh.model.Labels;
import mesh.model.Specs;
import mesh.plan.HostDiff;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ModuleNetworkNameIT: on the root Docker engine, a module network is found and removed by its exact name, never by
 * a prefix of another network's id. The engine resolves a network term by name, then by id, then by id PREFIX: a
 * module named {@code db} on an engine whose {@code bridge} network's id starts with {@code db} looked there as if
 * its network existed, so the network was never made, and its container (created with the module's alias) was then
 * started on {@code bridge}: "network-scoped alias is supported only for containers in user defined networks"
 * (BackupIT's raise, n2's {@code db.server}). Here the network's name is such a prefix on purpose, so the
 * collision that a fresh engine gives now and then happens every run. Everything made carries the run's node label
 * and is removed by it.
 */
class ModuleNetworkNameIT {

    EngineFixture engine;
    DockerEngine docker;
    ExecutorService pool;
    final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void setUp() {
        engine = new EngineFixture();
        docker = new DockerEngine(EngineFixture.ENGINE);
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        docker.close();
        engine.close();
    }

    /** The id of the engine's network {@code name}. */
    String idOf(String name) {
        return engine.docker.inspectNetworkCmd().withNetworkId(name).exec().getId();
    }

    @Test
    void aModuleNetworkNamedLikeThePrefixOfBridgesIdIsMadeAndItsContainerRunsOnIt() {
        String network = idOf("bridge").substring(0, 12);
        assertEquals("bridge", engine.docker.inspectNetworkCmd().withNetworkId(network).exec().getName(),
                "the engine answers the module network's name with bridge: the collision this test is about");
        String server = engine.name("server");
        Declaration d = new Declaration(engine.node, null, 1, List.of(Specs.component(server).module(engine.name("db"))
                .network(network).args("sh", "-c", "trap 'exit 0' TERM; while :; do sleep 1; done").stopTimeout(2)
                .build()));

        ApplyReport report = new ApplyRun(docker, pool, log::add).run(d, HostDiff.between(d, docker.list(engine.node)));

        assertTrue(report.ok(), () -> "failures: " + report.failures());
        var made = engine.docker.inspectNetworkCmd().withNetworkId(network).exec();
        assertEquals(network, made.getName(), "a network of the module network's own name");
        assertEquals(engine.node, made.getLabels().get(Labels.NODE));
        var container = engine.inspect(server);
        assertTrue(container.getState().getRunning(), "the container runs");
        Map<String, ContainerNetwork> on = container.getNetworkSettings().getNetworks();
        assertEquals(List.of(network), List.copyOf(on.keySet()), "on its module network alone, not on bridge");
        assertEquals(made.getId(), on.get(network).getNetworkID());
        assertTrue(on.get(network).getAliases().contains(server), () -> "its alias there: " + on.get(network).getAliases());
    }

    @Test
    void removingAModuleNetworkThatIsGoneLeavesTheNetworkWhoseIdItPrefixesAlone() {
        String other = engine.name("other");
        docker.ensureNetwork(other, Labels.forVolume(engine.node, engine.name("other")), null);
        String id = idOf(other);
        String gone = id.substring(0, 12);

        docker.removeNetwork(gone);

        assertEquals(other, engine.docker.inspectNetworkCmd().withNetworkId(id).exec().getName(),
                "the other module's network is still there");
    }

    @Test
    void aModuleNetworkNamedLikeThePrefixOfAnotherNetworksIdIsMadeBesideIt() {
        String other = engine.name("other");
        docker.ensureNetwork(other, Labels.forVolume(engine.node, engine.name("other")), null);
        String network = idOf(other).substring(0, 12);

        assertTrue(docker.ensureNetwork(network, Labels.forVolume(engine.node, engine.name("db")), null),
                "made: no network had that name");

        assertEquals(network, engine.docker.inspectNetworkCmd().withNetworkId(network).exec().getName());
        assertTrue(docker.networks(engine.node).keySet().containsAll(List.of(other, network)), docker.networks(engine.node)::toString);
    }
}
