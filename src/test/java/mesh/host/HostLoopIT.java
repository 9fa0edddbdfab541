package mesh.host;

import mesh.model.ComponentState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import mesh.docker.DockerEngine;
import mesh.model.Declaration;
import mesh.model.Specs;
import mesh.testbed.PackagedMesh;
import mesh.wire.HostStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** HostLoopIT: the agent's loop keeps the engine at the declaration, across tampering and restarts. */
class HostLoopIT {

    EngineFixture engine;
    Path stateDir;
    HostAgent agent;

    @BeforeEach
    void setUp() throws Exception {
        engine = new EngineFixture();
        stateDir = Files.createTempDirectory("mesh-loop");
    }

    @AfterEach
    void tearDown() {
        if (agent != null) {
            agent.stop();
        }
        engine.close();
    }

    HostAgent startAgent() {
        HostAgent a = new HostAgent();
        a.start(new HostSettings(engine.node, EngineFixture.ENGINE, "t", stateDir, Duration.ofMillis(300), 4),
                new DockerEngine(EngineFixture.ENGINE));
        return a;
    }

    Declaration declaration(long generation) {
        return new Declaration(engine.node, null, generation, List.of(
                component("a"), component("b"), component("c")));
    }

    mesh.model.ComponentSpec component(String name) {
        return Specs.component(engine.name(name)).module(engine.name("app")).network(engine.name("app"))
                .args("sh", "-c", "trap 'exit 0' TERM; while :; do sleep 1; done").stopTimeout(2).build();
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        PackagedMesh.await(what, Duration.ofSeconds(30), condition);
    }

    Map<String, String> ids() {
        Map<String, String> ids = new TreeMap<>();
        engine.containers().forEach(c -> ids.put(c.getNames()[0].substring(1), c.getId()));
        return ids;
    }

    boolean allRunning() {
        var status = agent.status();
        return status.converged() && status.components().stream().allMatch(c -> c.state() == ComponentState.RUNNING);
    }

    @Test
    void containersStoppedOrRemovedBehindItsBackComeBack() throws Exception {
        agent = startAgent();
        agent.accept(declaration(1));
        await("first apply", this::allRunning);
        Map<String, String> before = ids();

        engine.docker.stopContainerCmd(engine.name("a")).withTimeout(5).exec();
        engine.docker.removeContainerCmd(engine.name("b")).withForce(true).exec();
        await("a running again and b back", () -> ids().size() == 3 && allRunning()
                && engine.inspect(engine.name("a")).getState().getRunning());

        Map<String, String> after = ids();
        assertEquals(before.get(engine.name("a")), after.get(engine.name("a")), "a stopped one is started, not replaced");
        assertNotEquals(before.get(engine.name("b")), after.get(engine.name("b")), "a removed one is created again");
        assertEquals(before.get(engine.name("c")), after.get(engine.name("c")), "the untouched one is left alone");
    }

    @Test
    void aRestartedAgentConvergesFromItsRecordsWithoutReplacingAnything() throws Exception {
        agent = startAgent();
        agent.accept(declaration(1));
        await("first apply", this::allRunning);
        Map<String, String> before = ids();
        String startedAt = engine.inspect(engine.name("a")).getState().getStartedAt();
        agent.stop();

        agent = startAgent();
        await("the restarted agent converges", this::allRunning);

        assertEquals(1, agent.status().appliedGeneration());
        assertEquals(before, ids());
        assertEquals(startedAt, engine.inspect(engine.name("a")).getState().getStartedAt());
        assertTrue(Files.exists(stateDir.resolve("declarations/000000000001.json")));
    }
}
