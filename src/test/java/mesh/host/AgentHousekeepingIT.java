package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * AgentHousekeepingIT: the packaged host agent on the real root engine, reached through an
 * {@link EngineProxy} the test can make stop answering.
 *
 * <ol>
 *   <li>A module's network is removed when nothing of the module remains on the node; its volume is kept.</li>
 *   <li>While the engine does not answer, the agent logs the failure once when it starts and once when it
 *       ends (with how many passes it lasted), never a stack trace, and its engine calls back off.</li>
 * </ol>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentHousekeepingIT {

    static final Path ROOT_ENGINE = Path.of("/var/run/docker.sock");
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    final String id = UUID.randomUUID().toString().substring(0, 6);
    final String node = "hk" + id;
    final String keep = "hk" + id + "keep";
    final String gone = "hk" + id + "gone";
    Path dir;
    Path log;
    EngineProxy proxy;
    AgentProcess agent;
    DockerClient docker;

    @BeforeAll
    void start() throws Exception {
        dir = Files.createTempDirectory("mesh-hk");
        log = PackagedMesh.buildDir().resolve("agent-housekeeping").resolve(node + ".log");
        proxy = new EngineProxy(dir.resolve("engine.sock"), ROOT_ENGINE);
        docker = TestbedNodes.client("unix://" + ROOT_ENGINE);
        agent = new AgentProcess(PackagedMesh.copyApp(dir.resolve("app")), node, "hk-token-" + id, dir.resolve("state"),
                proxy.url());
        agent.start(log, Duration.ofSeconds(60));
    }

    @AfterAll
    void stop() throws Exception {
        if (agent != null) {
            agent.kill();
        }
        docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", node)).exec()
                .forEach(c -> docker.removeContainerCmd(c.getId()).withForce(true).exec());
        docker.listNetworksCmd().withFilter("label", List.of("mesh.node=" + node)).exec()
                .forEach(n -> docker.removeNetworkCmd(n.getId()).exec());
        docker.listVolumesCmd().withFilter("label", List.of("mesh.node=" + node)).exec().getVolumes()
                .forEach(v -> docker.removeVolumeCmd(v.getName()).exec());
        docker.close();
        if (proxy != null) {
            proxy.close();
        }
        PackagedMesh.deleteTree(dir);
    }

    @Test
    @Order(1)
    void aModulesNetworkGoesWhenNothingOfItRemainsAndItsVolumeStays() throws Exception {
        assertEquals(201, agent.put(declaration(1, keep, gone)).status());
        agent.awaitConverged(1, Duration.ofSeconds(60));
        assertEquals(List.of(gone, keep), networks(), "both modules' networks are made");

        assertEquals(201, agent.put(declaration(2, keep)).status());
        agent.awaitConverged(2, Duration.ofSeconds(60));
        PackagedMesh.await("the removed module's network is gone", Duration.ofSeconds(15), () -> networks().equals(List.of(keep)));
        assertTrue(volumes().contains(gone + "_data"), "a volume is never removed: " + volumes());
        assertTrue(Files.readString(log).contains("removed network " + gone + ": nothing of its module remains on this node"));
    }

    @Test
    @Order(2)
    void anEngineThatStopsAnsweringIsLoggedOnceWhenItStartsAndOnceWhenItEndsAndIsAskedLessAndLess() throws Exception {
        int linesBefore = Files.readAllLines(log).size();
        proxy.stopAnswering();
        PackagedMesh.await("the agent reports the engine down", Duration.ofSeconds(10),
                () -> engineError() != null);
        Thread.sleep(20_000);
        int calls = proxy.refused();
        // a pass every second would be 20 calls or more; backing off from 1 s doubling is about 5 passes
        assertTrue(calls >= 2 && calls <= 10, "engine connections while it did not answer for 20 s: " + calls);

        proxy.answerAgain();
        PackagedMesh.await("the agent sees the engine again", Duration.ofSeconds(60),
                () -> engineError() == null);
        List<String> lines = Files.readAllLines(log);
        List<String> during = lines.subList(linesBefore, lines.size());
        List<String> failing = during.stream().filter(l -> l.contains("failing the engine")).toList();
        List<String> recovered = during.stream().filter(l -> l.contains("recovered the engine after")).toList();
        assertEquals(1, failing.size(), "one line when it starts: " + during);
        assertEquals(1, recovered.size(), "one line when it ends: " + during);
        assertTrue(recovered.get(0).matches(".*recovered the engine after \\d+ failed passes over \\d+ s \\(last: .*"), recovered.get(0));
        int passes = Integer.parseInt(recovered.get(0).replaceAll(".*after (\\d+) failed passes.*", "$1"));
        assertTrue(passes >= 2 && passes <= 10, recovered.get(0));
        List<String> noise = during.stream().filter(l -> l.contains("Exception") || l.matches("\\s+at .*")
                || l.contains("java.")).toList();
        assertEquals(List.of(), noise, "no stack trace, no Java type: " + during);
        assertTrue(during.size() <= 6, "a handful of lines for the whole outage: " + during);
        agent.awaitConverged(2, Duration.ofSeconds(30));
    }

    // ---- helpers

    /** What the agent says of its engine now; "no answer" when the agent itself does not answer. */
    String engineError() {
        try {
            var e = agent.get("/v1/status").json().path("engineError");
            return e.isNull() || e.isMissingNode() ? null : e.asText();
        } catch (java.io.IOException e) {
            return "no answer";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    List<String> networks() {
        List<String> names = new ArrayList<>();
        docker.listNetworksCmd().withFilter("label", List.of("mesh.node=" + node)).exec().forEach(n -> names.add(n.getName()));
        names.sort(null);
        return names;
    }

    List<String> volumes() {
        List<String> names = new ArrayList<>();
        var answer = docker.listVolumesCmd().withFilter("label", List.of("mesh.node=" + node)).exec().getVolumes();
        if (answer != null) {
            answer.forEach(v -> names.add(v.getName()));
        }
        return names;
    }

    String declaration(long generation, String... modules) throws Exception {
        List<Map<String, Object>> components = new ArrayList<>();
        for (String module : modules) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("module", module);
            c.put("name", module + ".server");
            c.put("image", "mesh-test/busybox:1");
            c.put("args", List.of("sh", "-c", LOOP));
            c.put("volumes", Map.of("data", "/data"));
            c.put("stopTimeoutSeconds", 2);
            c.put("network", module);
            components.add(c);
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("node", node);
        d.put("generation", generation);
        d.put("components", components);
        return AgentProcess.JSON.writeValueAsString(d);
    }

}
