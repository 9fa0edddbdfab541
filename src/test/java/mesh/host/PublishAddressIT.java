package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import mesh.docker.DockerEngine;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.Labels;
import mesh.model.SpecDigest;
import mesh.model.Specs;
import mesh.plan.HostDiff;
import mesh.plan.HostPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PublishAddressIT shows on the real engine what digest v2 changed: a node whose address changes
 * replaces exactly the containers that publish a port, and a container labelled v1 by an older mesh
 * is kept by the upgrade alone, unless the engine shows it publishing on an address the node no
 * longer has. The two addresses are loopback ones of this machine.
 */
class PublishAddressIT {

    static final String OLD = "127.0.0.1";
    static final String NEW = "127.0.0.2";

    EngineFixture engine;
    DockerEngine docker;
    ExecutorService pool;
    List<String> log;

    @BeforeEach
    void setUp() {
        engine = new EngineFixture();
        docker = new DockerEngine(EngineFixture.ENGINE);
        pool = Executors.newFixedThreadPool(4);
        log = java.util.Collections.synchronizedList(new ArrayList<>());
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        docker.close();
        engine.close();
    }

    ApplyReport apply(Declaration d) {
        HostPlan plan = HostDiff.between(d, docker.list(d.node()));
        ApplyReport report = new ApplyRun(docker, pool, log::add).run(d, plan);
        assertTrue(report.ok(), () -> "failures: " + report.failures());
        return report;
    }

    ComponentSpec component(String name, Integer port) {
        Specs.Builder b = Specs.component(engine.name(name)).module(engine.name("app")).network(engine.name("app"))
                .args("sh", "-c", HostApplyIT.TRAPS_TERM).stopTimeout(2);
        if (port != null) {
            b.port(port);
        }
        return b.build();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(OLD))) {
            return s.getLocalPort();
        }
    }

    Map<String, String> identities() {
        Map<String, String> ids = new TreeMap<>();
        for (var c : engine.containers()) {
            var inspect = engine.inspect(c.getId());
            ids.put(inspect.getName().substring(1), inspect.getId() + "@" + inspect.getState().getStartedAt());
        }
        return ids;
    }

    /** The addresses the engine bound a container's ports to. */
    List<String> boundTo(String name) {
        List<String> ips = new ArrayList<>();
        engine.inspect(name).getHostConfig().getPortBindings().getBindings()
                .values().forEach(bindings -> java.util.Arrays.stream(bindings).forEach(b -> ips.add(b.getHostIp())));
        return ips;
    }

    List<String> replaced(Map<String, String> before, Map<String, String> after) {
        return before.keySet().stream().filter(n -> !before.get(n).equals(after.get(n))).sorted().toList();
    }

    @Test
    void aNewNodeAddressReplacesExactlyThePublishersAndSaysAddress() throws IOException {
        List<ComponentSpec> components = List.of(component("web", freePort()), component("api", freePort()),
                component("worker", null), component("cache", null));
        apply(new Declaration(engine.node, OLD, 1, components));
        Map<String, String> before = identities();

        ApplyReport moved = apply(new Declaration(engine.node, NEW, 2, components));

        assertEquals(List.of(engine.name("api"), engine.name("web")), replaced(before, identities()));
        assertEquals(List.of("updated " + engine.name("api") + " (" + engine.name("app") + "): replaced; address changed",
                        "updated " + engine.name("web") + " (" + engine.name("app") + "): replaced; address changed"),
                moved.lines().stream().sorted().toList());
        assertEquals(List.of(NEW), boundTo(engine.name("web")));
        assertTrue(engine.inspect(engine.name("web")).getConfig().getLabels().get(Labels.DIGEST).startsWith("v3:"), "a replacement carries the current digest version");
    }

    /** Creates and starts the container an older mesh (digest v1) made for {@code c} publishing on {@code address}. */
    void madeByV1(ComponentSpec c, String address) {
        ContainerRequest bare = ContainerRequest.of(c, address);
        Map<String, String> labels = new HashMap<>(ContainerRequest.of(c, address, engine.node, 1).labels());
        labels.put(Labels.DIGEST, SpecDigest.of("v1", bare));
        labels.put(Labels.SPEC, SpecDigest.canonical("v1", bare));
        docker.ensureNetwork(c.network(), Labels.forVolume(engine.node, c.module()), null);   // as an older mesh did: Docker's pools
        docker.start(docker.create(bare.withLabels(labels)), !bare.ports().isEmpty());
    }

    @Test
    void containersLabelledV1AreKeptByTheUpgradeAlone() throws Exception {
        List<ComponentSpec> components = List.of(component("web", freePort()), component("worker", null));
        components.forEach(c -> madeByV1(c, OLD));
        Map<String, String> before = identities();
        long writes = docker.writes();

        HostPlan plan = HostDiff.between(new Declaration(engine.node, OLD, 2, components), docker.list(engine.node));
        ApplyReport report = apply(new Declaration(engine.node, OLD, 2, components));

        assertTrue(plan.isEmpty(), plan.summary());
        assertEquals(List.of(), report.lines());
        assertEquals(0, docker.writes() - writes, "engine write calls");
        assertEquals(before, identities());
        assertTrue(engine.inspect(engine.name("web")).getConfig().getLabels().get(Labels.DIGEST).startsWith("v1:"));
    }

    @Test
    void aV1ContainerPublishingOnTheOldAddressIsReplacedForAddressAndNothingElseIs() throws Exception {
        List<ComponentSpec> components = List.of(component("web", freePort()), component("worker", null));
        components.forEach(c -> madeByV1(c, OLD));
        Map<String, String> before = identities();

        ApplyReport moved = apply(new Declaration(engine.node, NEW, 2, components));

        assertEquals(List.of(engine.name("web")), replaced(before, identities()));
        assertEquals(List.of("updated " + engine.name("web") + " (" + engine.name("app") + "): replaced; address changed"),
                moved.lines());
        assertEquals(List.of(NEW), boundTo(engine.name("web")));
        assertTrue(engine.inspect(engine.name("web")).getConfig().getLabels().get(Labels.DIGEST).startsWith("v3:"), "a replacement carries the current digest version");
        assertTrue(engine.inspect(engine.name("worker")).getConfig().getLabels().get(Labels.DIGEST).startsWith("v1:"),
                "what publishes nothing keeps its v1 container");
    }
}
