package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mesh.wire.HostStatus;
import org.junit.jupiter.api.Test;

/**
 * HostPassTest: the pass runs its steps in order; a step that throws ends it as an engine failure the loop backs
 * off from, and while it backs off a pass only reconciles the processes, unless it is forced.
 */
class HostPassTest {

    final List<String> ran = new ArrayList<>();
    final AgentState state = PassStepsFixture.state();
    final HostLoop loop = new HostLoop(Duration.ofSeconds(15), forced -> { });
    final ReconcileProcesses processes = new ReconcileProcesses(now -> {
        ran.add("processes");
        return List.of();
    }, PassStepsFixture.CLOCK, s -> { }, s -> { });

    PassStep step(String name) {
        return pass -> ran.add(name);
    }

    @Test
    void runsItsStepsInOrderOverTheDeclarationKept() {
        HostPass pass = new HostPass(state, loop, processes, List.of(step("a"), processes, step("b")), PassStepsFixture.CLOCK);
        pass.run(false);
        assertEquals(List.of(), ran, "no declaration yet: nothing to do");
        state.desire(PassStepsFixture.declaration(1));
        pass.run(false);
        assertEquals(List.of("a", "processes", "b"), ran);
        assertNotNull(state.lastPass);
        assertFalse(state.passing);
    }

    @Test
    void aStatusWaitIsAnsweredWhenAPassOverItsGenerationEnds() throws Exception {
        HostPass pass = new HostPass(state, loop, processes, List.of(step("a"), new MarkApplied(state)), PassStepsFixture.CLOCK);
        state.desire(PassStepsFixture.declaration(1));
        pass.run(false);   // a pass over 1 that did not apply it (nothing marked it done)
        state.desire(PassStepsFixture.declaration(2));
        mesh.plan.StatusWait two = new mesh.plan.StatusWait(2, Duration.ofSeconds(20));
        java.util.concurrent.CompletableFuture<Long> waited = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            long began = System.nanoTime();
            try {
                state.await(two);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return (System.nanoTime() - began) / 1_000_000;
        });
        Thread.sleep(300);
        assertFalse(waited.isDone(), "no pass over 2 ended yet: the question waits");
        pass.run(false);
        long millis = waited.get(5, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(true, millis >= 250 && millis < 5000, "answered at the pass's end, not at the wait's: " + millis + " ms");
        long began = System.nanoTime();
        state.await(new mesh.plan.StatusWait(3, Duration.ofSeconds(20)));
        assertEquals(true, System.nanoTime() - began < 1_000_000_000L, "generation 3 is not here: answered at once");
    }

    @Test
    void aStepThatThrowsIsAnEngineFailureThatBacksOffUntilForced() {
        HostPass pass = new HostPass(state, loop, processes, List.of(step("a"), p -> {
            throw new IllegalStateException("connection refused");
        }, step("never")), PassStepsFixture.CLOCK);
        state.desire(PassStepsFixture.declaration(1));
        state.converged = true;
        pass.run(false);
        assertEquals(List.of("a"), ran);
        assertEquals(Map.of(HostStatus.ENGINE, "connection refused"), state.failures.reasons());
        assertFalse(state.converged);
        ran.clear();
        pass.run(false);
        assertEquals(List.of("processes"), ran, "backing off: only the processes, which need no engine");
        ran.clear();
        pass.run(true);
        assertEquals(List.of("a"), ran, "a refresh asks the engine anyway");
        assertEquals(2, state.failures.passes(HostStatus.ENGINE));
    }

    @Test
    void theAgentsPassIsTheStatedOrder(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        AgentState s = PassStepsFixture.state();
        HostLoop l = new HostLoop(Duration.ofSeconds(15), forced -> { });
        // parts that are built, never called: no engine is asked
        mesh.docker.Engine engine = new mesh.docker.DockerEngine("unix:///nonexistent/docker.sock");
        ProcessComponents processes = ProcessComponents.of(dir);
        HostIntake intake = new HostIntake("n1", new DeclarationRecords(dir), engine, processes, PassStepsFixture.CLOCK, 1);
        java.util.concurrent.ExecutorService pool = HostLoop.applyPool(1);
        try {
            HostPass p = PassSteps.pass(new PassSteps.Parts(HostSettings.forServe(Map.of("MESH_HOST_NODE", "n1")), engine,
                    processes, intake, s, l, new ModuleStops("n1", engine, processes, pool, l, () -> null, PassStepsFixture.CLOCK),
                    pool, new KeepEdge(null, s, engine), () -> null, PassStepsFixture.CLOCK,
                    new StartGate(PassStepsFixture.CLOCK, d -> { }, line -> { }),
                    new ContainerRestarts(PassStepsFixture.CLOCK, d -> { })),
                    org.jboss.logging.Logger.getLogger("test"));
            assertEquals(List.of("KeepFences", "ReconcileProcesses", "NoEngineRestarts", "ObserveStep", "ContainerRestarts", "ApplyStep", "LookStep", "PruneNetworks",
                    "MarkApplied", "LookAgainSoon", "KeepEdge", "CleanBundles"),
                    p.steps().stream().map(st -> st.getClass().getSimpleName()).toList());
        } finally {
            pool.shutdownNow();
            l.stop();
        }
    }
}
