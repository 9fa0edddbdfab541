package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.model.Event;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;
import mesh.docker.DockerEngine;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.HealthCheck;
import mesh.model.Specs;
import mesh.plan.HostDiff;
import mesh.plan.HostPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** HostApplyIT applies declarations to the real engine and looks at what the engine did. */
class HostApplyIT {

    static final String TRAPS_TERM = "trap 'exit 0' TERM; while :; do sleep 1; done";

    EngineFixture engine;
    DockerEngine docker;
    ExecutorService pool;
    List<String> log;

    @BeforeEach
    void setUp() {
        engine = new EngineFixture();
        docker = new DockerEngine(EngineFixture.ENGINE);
        pool = Executors.newFixedThreadPool(8);
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

    Declaration declaration(long generation, int count, IntFunction<ComponentSpec> component) {
        List<ComponentSpec> components = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            components.add(component.apply(i));
        }
        return new Declaration(engine.node, null, generation, components);
    }

    Specs.Builder busybox(String name) {
        return Specs.component(engine.name(name)).module(engine.name("app")).network(engine.name("app"))
                .args("sh", "-c", TRAPS_TERM).stopTimeout(2);
    }

    /** Container id and start time per name: what "touched" means to an operator. */
    Map<String, String> identities() {
        Map<String, String> ids = new TreeMap<>();
        for (var c : engine.containers()) {
            var inspect = engine.inspect(c.getId());
            ids.put(inspect.getName().substring(1), inspect.getId() + "@" + inspect.getState().getStartedAt());
        }
        return ids;
    }

    List<Event> events(long sinceSeconds, long untilSeconds) throws InterruptedException {
        List<Event> events = java.util.Collections.synchronizedList(new ArrayList<>());
        engine.docker.eventsCmd().withSince(Long.toString(sinceSeconds)).withUntil(Long.toString(untilSeconds))
                .withLabelFilter(Map.of("mesh.node", engine.node))
                .exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<Event>() {
                    @Override
                    public void onNext(Event e) {
                        events.add(e);
                    }
                }).awaitCompletion(30, java.util.concurrent.TimeUnit.SECONDS);
        return events;
    }

    @Test
    void twentyComponentsAppliedTwiceTouchNothingTheSecondTime() throws Exception {
        Declaration first = declaration(1, 20, i -> busybox("c" + i).env("N", Integer.toString(i)).build());
        ApplyReport created = apply(first);
        assertEquals(20, created.lines().size());
        assertEquals(20, engine.containers().stream().filter(c -> "running".equals(c.getState())).count());
        Map<String, String> before = identities();

        long writesBefore = docker.writes();
        // events are filtered by whole seconds: start the window on a fresh second after the first apply
        long since = System.currentTimeMillis() / 1000 + 1;
        Thread.sleep(since * 1000 - System.currentTimeMillis() + 50);
        Declaration again = declaration(2, 20, i -> busybox("c" + i).env("N", Integer.toString(i)).build());
        HostPlan plan = HostDiff.between(again, docker.list(engine.node));
        ApplyReport second = new ApplyRun(docker, pool, log::add).run(again, plan);
        Thread.sleep(1100);
        long until = System.currentTimeMillis() / 1000 + 1;

        assertTrue(plan.isEmpty(), plan.summary());
        assertEquals(List.of(), second.lines());
        assertEquals(0, docker.writes() - writesBefore, "engine write calls on the second apply");
        assertEquals(before, identities(), "container ids and start times");
        assertEquals(List.of(), events(since, until).stream().map(e -> e.getAction() + " " + e.getId()).toList(),
                "engine events for this node during the second apply");
    }

    @Test
    void movingOneNameReplacesExactlyItsThreeBindersAmongTwenty() throws Exception {
        IntFunction<ComponentSpec> at11 = i -> binder(i, "10.77.0.11");
        IntFunction<ComponentSpec> at12 = i -> binder(i, "10.77.0.12");
        apply(declaration(1, 20, at11));
        Map<String, String> before = identities();

        ApplyReport moved = apply(declaration(2, 20, at12));

        Map<String, String> after = identities();
        List<String> replaced = before.keySet().stream().filter(n -> !before.get(n).equals(after.get(n))).sorted().toList();
        assertEquals(List.of(engine.name("c0"), engine.name("c14"), engine.name("c7")), replaced);
        assertEquals(3, moved.lines().size(), () -> "lines: " + moved.lines());
        assertTrue(moved.lines().contains("updated " + engine.name("c7") + " (" + engine.name("app") + "): replaced; hosts changed"),
                () -> "lines: " + moved.lines());
        assertTrue(engine.exec(engine.name("c7"), "cat", "/etc/hosts").contains("10.77.0.12\tweb.internal"),
                "the binder resolves the name's new address");
        assertFalse(engine.exec(engine.name("c1"), "cat", "/etc/hosts").contains("web.internal"),
                "a component that does not bind the name does not carry it");
    }

    /** c0, c7 and c14 bind web.internal; every component binds store.internal, which does not move. */
    ComponentSpec binder(int i, String webAddress) {
        Specs.Builder b = busybox("c" + i).host("store.internal", "10.77.0.13");
        if (i % 7 == 0) {
            b.host("web.internal", webAddress);
        }
        return b.build();
    }

    @Test
    void aReplaceGivesTheOldContainerItsWholeStopTimeoutAndKeepsItsVolume() throws Exception {
        String cleanShutdown = "trap 'sleep 2; echo clean >> /data/shutdowns; exit 0' TERM; "
                + "echo started >> /data/shutdowns; while :; do sleep 1; done";
        IntFunction<ComponentSpec> db = gen -> busybox("db").volume("data", "/data")
                .args("sh", "-c", cleanShutdown).env("GEN", Integer.toString(gen)).stopTimeout(8).build();
        IntFunction<ComponentSpec> stubborn = gen -> busybox("stubborn")
                .args("sh", "-c", "trap '' TERM; while :; do sleep 1; done").env("GEN", Integer.toString(gen))
                .stopTimeout(3).build();
        apply(new Declaration(engine.node, null, 1, List.of(db.apply(1), stubborn.apply(1))));

        long start = System.nanoTime();
        apply(new Declaration(engine.node, null, 2, List.of(db.apply(2), stubborn.apply(2))));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertEquals("started\nclean\nstarted\n", engine.exec(engine.name("db"), "cat", "/data/shutdowns"),
                "the old db finished its 2 s shutdown inside its 8 s grace, on the volume the new one reads");
        assertTrue(took.toMillis() >= 3000, "the stubborn one was given its 3 s before the kill, took " + took);
        assertTrue(took.toMillis() < 10000, "and not Docker's default 10 s: took " + took);
    }

    @Test
    void aDependantStartsOnlyAfterItsDependencyIsHealthy() throws Exception {
        String slowDb = "sleep 2; touch /shared/ready; " + TRAPS_TERM;
        String app = "if [ -f /shared/ready ]; then echo ready > /shared/saw; else echo early > /shared/saw; fi; " + TRAPS_TERM;
        ComponentSpec dbSpec = busybox("db").volume("shared", "/shared").args("sh", "-c", slowDb)
                .health(new HealthCheck(null, null, List.of("test", "-f", "/shared/ready"), 20)).build();
        ComponentSpec appSpec = busybox("web").volume("shared", "/shared").args("sh", "-c", app)
                .after(engine.name("db")).build();

        apply(new Declaration(engine.node, null, 1, List.of(appSpec, dbSpec)));

        assertEquals("ready\n", engine.exec(engine.name("web"), "cat", "/shared/saw"));
        var dbStarted = java.time.Instant.parse(engine.inspect(engine.name("db")).getState().getStartedAt());
        var webStarted = java.time.Instant.parse(engine.inspect(engine.name("web")).getState().getStartedAt());
        assertTrue(Duration.between(dbStarted, webStarted).toMillis() >= 2000,
                "web started " + Duration.between(dbStarted, webStarted) + " after db, before its 2 s to health");
    }

    @Test
    void withoutAfterTheSameDependantStartsEarlyWhichIsWhatTheOrderingPrevents() throws Exception {
        String slowDb = "sleep 2; touch /shared/ready; " + TRAPS_TERM;
        String app = "if [ -f /shared/ready ]; then echo ready > /shared/saw; else echo early > /shared/saw; fi; " + TRAPS_TERM;
        ComponentSpec dbSpec = busybox("db").volume("shared", "/shared").args("sh", "-c", slowDb).build();
        ComponentSpec appSpec = busybox("web").volume("shared", "/shared").args("sh", "-c", app).build();

        apply(new Declaration(engine.node, null, 1, List.of(appSpec, dbSpec)));

        assertEquals("early\n", engine.exec(engine.name("web"), "cat", "/shared/saw"));
    }

    @Test
    void aContainerStoppedBehindTheAgentsBackIsStartedNotReplacedAndAnUndeclaredOneIsRemovedButNotItsVolume()
            throws Exception {
        ComponentSpec keep = busybox("keep").build();
        ComponentSpec gone = busybox("gone").volume("data", "/data").build();
        apply(new Declaration(engine.node, null, 1, List.of(keep, gone)));
        String keepId = engine.inspect(engine.name("keep")).getId();
        engine.docker.stopContainerCmd(keepId).withTimeout(5).exec();

        ApplyReport report = apply(new Declaration(engine.node, null, 2, List.of(keep)));

        assertEquals(keepId, engine.inspect(engine.name("keep")).getId());
        assertTrue(engine.inspect(engine.name("keep")).getState().getRunning());
        assertEquals(List.of(engine.name("keep")), engine.containers().stream().map(c -> c.getNames()[0].substring(1)).toList());
        assertEquals(engine.name("app") + "_data", engine.docker.inspectVolumeCmd(engine.name("app") + "_data").exec().getName());
        assertEquals(2, report.lines().size(), () -> "lines: " + report.lines());
    }

    @Test
    void aFailingComponentFailsOnlyItselfAndWhatWaitsOnIt() {
        ComponentSpec broken = busybox("broken").image("mesh-test/no-such-image:0").build();
        ComponentSpec waiter = busybox("waiter").after(engine.name("broken")).build();
        ComponentSpec fine = busybox("fine").build();
        Declaration d = new Declaration(engine.node, null, 1, List.of(broken, waiter, fine));

        ApplyReport report = new ApplyRun(docker, pool, log::add).run(d, HostDiff.between(d, docker.list(engine.node)));

        assertEquals(List.of(engine.name("broken"), engine.name("waiter")), List.copyOf(report.failures().keySet()));
        assertTrue(report.failures().get(engine.name("broken")).contains("no-such-image"), report.failures().toString());
        assertTrue(engine.inspect(engine.name("fine")).getState().getRunning());
    }
}
