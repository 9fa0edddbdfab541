package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.OtherBuild;
import mesh.testbed.PackagedMesh;
import mesh.wire.Build;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * UpgradeIT is {@code mesh upgrade} on a three-node mesh installed as operators install it, from an earlier commit of
 * this repository ({@link OtherBuild} builds it from git: {@link #EARLIER}, the last commit before mesh upgrade), running
 * containers (the store, the registry, a module on n2) and processes (the controller on the seat, a module's on n3).
 * First n2 is made unable to put the new build beside the old (its {@code app.next} an immutable folder: the kernel
 * refuses to replace it, even to root): the upgrade stops at n2, its first node, naming it; n2 still runs the old agent,
 * the nodes after it and the controller are untouched; {@code mesh install} of this build on the seat is refused,
 * naming {@code mesh upgrade}, nothing changed. Then, n2 mended, {@code mesh upgrade} again: every agent and the
 * controller run this build; no container was replaced (ids) and no process restarted (pids) but the agents and the
 * controller, which answered throughout but for a gap the test measures and bounds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class UpgradeIT {

    /** The earlier build: main before mesh upgrade existed (an upgrade must move a mesh that never heard of it). */
    static final String EARLIER = "d2e0425";
    /** The longest the controller may not answer while it moves (its process replaced: stop, then a JVM's start). */
    static final Duration CONTROLLER_GAP = Duration.ofSeconds(45);
    static final Duration UPGRADE = Duration.ofMinutes(12);
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    InstalledMesh mesh;
    Path dir;
    String earlier;

    @BeforeAll
    void raise() throws Exception {
        Path old = OtherBuild.app(EARLIER, Map.of());
        earlier = Build.current().version() + " (" + EARLIER;
        mesh = InstalledMesh.raise(3, List.of(), Map.of("n1", old, "n2", old, "n3", old));
        dir = Files.createTempDirectory("mesh-upgrade-it");
        Path catalogue = Files.createDirectories(dir.resolve("catalogue"));
        Files.writeString(catalogue.resolve("upweb.yaml"), "module: upweb\ncomponents:\n  upweb.server:\n    image: mesh-test/busybox:1\n"
                + "    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 1s\n");
        Path bundle = Files.createDirectories(dir.resolve("bundle"));
        Files.writeString(bundle.resolve("run"), "#!/bin/sh\n" + LOOP + "\n");
        Files.setPosixFilePermissions(bundle.resolve("run"), PosixFilePermissions.fromString("rwxr-xr-x"));
        String ref = mesh.ok("bundle", "push", bundle.toString(), "it/uploop:1", "--entrypoint", "run").strip();
        Files.writeString(catalogue.resolve("upproc.yaml"), "module: upproc\ncomponents:\n  upproc.loop:\n    bundle: " + ref
                + "\n    stop-timeout: 2s\n");
        mesh.ok("catalogue", "add", catalogue.toString());
        mesh.ok("assign", "n2", "upweb");
        mesh.ok("assign", "n3", "upproc");
        mesh.ok("push", "--wait", "--wait-timeout", "120");
        for (String n : mesh.names()) {
            assertTrue(build(n).startsWith(earlier), n + " runs the earlier build: " + build(n));
        }
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            Path blocker = mesh.node("n2").state().resolve("app.next");
            new ProcessBuilder("chattr", "-i", blocker.toString()).start().waitFor();
            mesh.close();
        }
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
        }
    }

    @Test
    @Order(1)
    void anUpgradeStopsAtTheFirstNodeThatCannotMoveNamingItTheRestUntouched() throws Exception {
        Path blocker = Files.createDirectories(mesh.node("n2").state().resolve("app.next"));
        assertEquals(0, new ProcessBuilder("chattr", "+i", blocker.toString()).inheritIO().start().waitFor(), "chattr +i");
        Map<String, String> containers = containers();
        Map<String, Long> agents = agentPids();
        long controller = mesh.controllerPid();

        PackagedMesh.Result up = mesh.meshWithin(UPGRADE, "upgrade");
        assertEquals(1, up.exit(), up.toString());
        assertTrue(up.err().contains("the upgrade stopped at node n2's agent: mesh host upgrade-self ended (exit 1) on node n2:"), up.toString());
        assertTrue(up.err().contains("cannot put the new build beside the old one in " + mesh.node("n2").state()), up.toString());
        assertTrue(up.err().contains("its agent still runs mesh " + earlier), up.toString());
        assertTrue(up.err().contains("the parts after it were not moved"), up.toString());

        for (String n : mesh.names()) {
            assertTrue(build(n).startsWith(earlier), n + " still runs the earlier build: " + build(n));
        }
        assertTrue(mesh.controller("/v1/mesh/build").path("commit").asText().startsWith(EARLIER), "the controller was not moved");
        assertEquals(agents, agentPids(), "no agent was restarted");
        assertEquals(controller, mesh.controllerPid(), "the controller was not restarted");
        assertEquals(containers, containers(), "no container was replaced");
        assertTrue(mesh.ok("catalogue", "list").lines().noneMatch(l -> l.startsWith("mesh-upgrade-")), "the one-off module was removed");

        // mesh install of this build on the seat, which runs the earlier one: refused, naming mesh upgrade, nothing changed
        PackagedMesh.Result install = mesh.seat().meshFrom(PackagedMesh.app(), mesh.seat().seatArgs(), Map.of());
        assertEquals(1, install.exit(), install.toString());
        assertTrue(install.err().contains("install refused, nothing was changed: another build of mesh is installed here ("
                + mesh.seat().state().resolve("app") + ")") && install.err().contains("run 'mesh upgrade' with it"), install.toString());
        assertEquals(agents, agentPids(), "no agent was restarted by the install");
        assertTrue(build("n1").startsWith(earlier), "the seat still runs the earlier build");
    }

    @Test
    @Order(2)
    void anUpgradeMovesEveryAgentAndTheControllerReplacingNothing() throws Exception {
        Path blocker = mesh.node("n2").state().resolve("app.next");
        assertEquals(0, new ProcessBuilder("chattr", "-i", blocker.toString()).inheritIO().start().waitFor(), "chattr -i");
        Files.delete(blocker);
        Map<String, String> containers = containers();
        Map<String, Long> agents = agentPids();
        long controller = mesh.controllerPid();
        long process = processPid("n3", "upproc.loop");

        AtomicBoolean moving = new AtomicBoolean(true);
        AtomicLong longestGap = new AtomicLong();
        Thread watch = Thread.ofVirtual().start(() -> {
            long last = System.nanoTime();
            while (moving.get()) {
                try {
                    mesh.controller("/v1/mesh/build");
                    long now = System.nanoTime();
                    longestGap.accumulateAndGet(now - last, Math::max);
                    last = now;
                } catch (Exception | AssertionError e) {
                    // not answering: the gap grows until the next answer
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        PackagedMesh.Result up;
        try {
            up = mesh.meshWithin(UPGRADE, "upgrade");
        } finally {
            moving.set(false);
            watch.join(Duration.ofSeconds(30));
        }
        assertEquals(0, up.exit(), up.toString());
        up.out().lines().forEach(l -> System.out.println("UpgradeIT: mesh upgrade: " + l));
        String head = Build.current().words();
        for (String n : mesh.names()) {
            assertEquals(head, buildWords(n), n + " runs this build");
        }
        JsonNode build = mesh.controller("/v1/mesh/build");
        assertEquals(Build.current().commit(), build.path("commit").asText(null), "the controller runs this build: " + build);
        assertEquals(containers, containers(), "no container was replaced");
        assertEquals(process, processPid("n3", "upproc.loop"), "the module's process was not restarted");
        for (Map.Entry<String, Long> a : agents.entrySet()) {
            assertNotEquals(a.getValue(), mesh.agentPid(a.getKey()), a.getKey() + "'s agent was restarted onto the new build");
        }
        assertNotEquals(controller, mesh.controllerPid(), "the controller was restarted onto the new build");
        System.out.printf("UpgradeIT: the controller did not answer for %.1f s at most%n", longestGap.get() / 1e9);
        assertTrue(longestGap.get() <= CONTROLLER_GAP.toNanos(), "the controller's gap: " + longestGap.get() / 1e9 + " s");
        assertTrue(mesh.ok("catalogue", "list").lines().noneMatch(l -> l.startsWith("mesh-upgrade-")), "the one-off modules were removed");

        PackagedMesh.Result again = mesh.meshWithin(UPGRADE, "upgrade");
        assertEquals(0, again.exit(), again.toString());
        assertTrue(again.out().contains("nothing to move"), again.toString());
    }

    private String build(String node) throws Exception {
        JsonNode b = mesh.agent(node, "/v1/status").path("build");
        return b.path("version").asText() + " (" + b.path("commit").asText();
    }

    private String buildWords(String node) throws Exception {
        JsonNode b = mesh.agent(node, "/v1/status").path("build");
        return b.path("version").asText() + " (" + b.path("commit").asText() + ")";
    }

    /** Every container of the mesh by name, with its id. */
    private Map<String, String> containers() {
        Map<String, String> all = new TreeMap<>();
        for (String n : mesh.names()) {
            mesh.engine(n).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", n)).exec()
                    .forEach(c -> all.put(n + ":" + c.getNames()[0], c.getId()));
        }
        assertTrue(all.size() >= 3, "the store, the registry and upweb run: " + all);
        return all;
    }

    private Map<String, Long> agentPids() throws Exception {
        Map<String, Long> pids = new TreeMap<>();
        for (String n : mesh.names()) {
            pids.put(n, mesh.agentPid(n));
        }
        return pids;
    }

    private long processPid(String node, String component) throws Exception {
        for (JsonNode c : mesh.agent(node, "/v1/status").path("components")) {
            if (c.path("name").asText().equals(component)) {
                return c.path("process").path("pid").asLong();
            }
        }
        throw new AssertionError(component + " is not on " + node);
    }
}
