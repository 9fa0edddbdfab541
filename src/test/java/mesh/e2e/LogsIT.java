package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * LogsIT is {@code mesh logs} on a mesh raised by {@code mesh install} and {@code --join} ({@link InstalledMesh}):
 * from the operator's CLI through the controller to the agent of the node each module is taken on. Module logweb
 * (two containers) on n2, module logproc (a process from a bundle) on n3, module logidle in the catalogue and
 * taken nowhere. Shown: both kinds of output, the prefix of several components, {@code --tail}, {@code --since},
 * {@code -o json} lines, a follow that ends when a push replaces the component (container and process), a follow
 * whose CLI is SIGTERMed (the agent then holds no stream open), the refusals that name what they refuse, and
 * the deadlines: a SIGSTOPped agent (the controller ends its stream naming the node) and a SIGSTOPped controller
 * (the CLI ends saying it heard nothing, not even a keep-alive).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class LogsIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String TICKS = "i=0; while true; do i=$((i+1)); echo \"%s tick $i\"; sleep 1; done";

    InstalledMesh mesh;
    Path dir;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(3);
        dir = Files.createTempDirectory("mesh-logs-it");
        Path bundle = Files.createDirectories(dir.resolve("bundle"));
        Files.writeString(bundle.resolve("run"), String.join("\n", "#!/bin/sh",
                "echo \"proc says hello $GREETING\"", TICKS.formatted("proc"), ""));
        Files.setPosixFilePermissions(bundle.resolve("run"), PosixFilePermissions.fromString("rwxr-xr-x"));
        String ref = mesh.ok("bundle", "push", bundle.toString(), "it/logproc:1", "--entrypoint", "run").strip();
        Files.writeString(dir.resolve("logproc.yaml"), process(ref, "one"));
        Files.writeString(dir.resolve("logweb.yaml"), web("one"));
        Files.writeString(dir.resolve("logidle.yaml"), """
                module: logidle
                components:
                  logidle.app:
                    image: mesh-test/busybox:1
                    args: [sleep, "3600"]
                """);
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("assign", "n2", "logweb");
        mesh.ok("assign", "n3", "logproc");
        mesh.ok("push", "--wait");
        PackagedMesh.await("both modules have written a few ticks", Duration.ofSeconds(60),
                () -> mesh.mesh("logs", "logweb/app").out().contains("web tick 3")
                        && mesh.mesh("logs", "logproc").out().contains("proc tick 3"));
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
        }
    }

    static String web(String greeting) {
        return """
                module: logweb
                components:
                  logweb.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, 'echo "web says hello $GREETING"; echo "web warns" >&2; %s']
                    env: {GREETING: "%s"}
                    stop-timeout: 1s
                  logweb.side:
                    image: mesh-test/busybox:1
                    args: [sh, -c, 'echo "side says hello"; exec sleep 3600']
                    stop-timeout: 1s
                """.formatted(TICKS.formatted("web"), greeting);
    }

    static String process(String bundle, String greeting) {
        return """
                module: logproc
                components:
                  logproc.run:
                    bundle: %s
                    env: {GREETING: "%s"}
                    volumes: {data: /data}
                    stop-timeout: 2s
                """.formatted(bundle, greeting);
    }

    @Test
    @Order(1)
    void aContainersAndAProcesssOutputEachLineAfterItsComponentWhenSeveral() {
        String all = mesh.ok("logs", "logweb");
        assertTrue(all.contains("logweb.app | web says hello one"), all);
        assertTrue(all.contains("logweb.app | web warns"), "stderr too: " + all);
        assertTrue(all.contains("logweb.side | side says hello"), all);
        String one = mesh.ok("logs", "logweb/logweb.app");
        // the engine keeps stdout and stderr apart, so "web warns" may come before the greeting, written a moment earlier
        assertTrue(one.lines().anyMatch("web says hello one"::equals) && one.lines().anyMatch("web warns"::equals)
                && one.lines().noneMatch(l -> l.contains(" | ")), "one component: no prefix: " + one);
        String proc = mesh.ok("logs", "logproc");
        assertTrue(proc.startsWith("proc says hello one\n"), proc);
        assertTrue(proc.contains("proc tick 2"), proc);
    }

    @Test
    @Order(2)
    void tailGivesTheLastLines() {
        List<String> web = mesh.ok("logs", "logweb/app", "--tail", "2").lines().toList();
        assertEquals(2, web.size(), web.toString());
        assertTrue(web.stream().allMatch(l -> l.startsWith("web tick ")), web.toString());
        List<String> proc = mesh.ok("logs", "logproc", "--tail", "3").lines().toList();
        assertEquals(3, proc.size(), proc.toString());
        assertTrue(proc.stream().allMatch(l -> l.startsWith("proc tick ")), proc.toString());
        assertEquals("", mesh.ok("logs", "logweb/app", "--tail", "0"));
    }

    @Test
    @Order(3)
    void sinceLeavesOutWhatCameBefore() throws Exception {
        Instant from = Instant.now().plusSeconds(1);
        Thread.sleep(3500);
        String since = mesh.ok("logs", "logweb/app", "--since", from.toString());
        // a tick a second: what came after FROM is at most a line per second since (the verb's own start included,
        // seconds on a loaded machine)
        long seconds = Duration.between(from, Instant.now()).toSeconds() + 1;
        assertFalse(since.contains("web says hello"), since);
        assertTrue(since.contains("web tick"), since);
        assertTrue(since.lines().count() <= seconds + 1, "only the ticks of the " + seconds + " s since " + from + ": " + since);
        // what came before FROM is in the whole log and left out by --since: the raise saw tick 3 before FROM was taken,
        // and the whole log, asked after, holds every line --since gave and, before the first of them, the ones it left out
        // (their count is not asserted: it is how long the verbs before took, natively a fraction of the JVM's)
        List<String> whole = mesh.ok("logs", "logweb/app").lines().toList();
        List<String> after = since.lines().toList();
        for (String early : List.of("web says hello one", "web tick 1", "web tick 2", "web tick 3")) {
            assertTrue(whole.contains(early), "the whole log holds " + early + ": " + whole);
            assertFalse(after.contains(early), "--since " + from + " leaves out " + early + ": " + since);
        }
        int first = whole.indexOf(after.get(0));
        assertTrue(first > 0 && whole.subList(first, whole.size()).containsAll(after),
                "--since gives the whole log's last lines from its first one on: " + since + "\nthe whole log: " + whole);
        assertTrue(mesh.ok("logs", "logweb/app", "--since", "1h").contains("web says hello one"));
        PackagedMesh.Result bad = mesh.mesh("logs", "logweb", "--since", "yesterday");
        assertEquals(2, bad.exit(), bad.toString());
        assertTrue(bad.err().contains("--since must be a duration"), bad.toString());
    }

    @Test
    @Order(4)
    void jsonIsOneObjectPerLine() throws Exception {
        List<String> lines = mesh.ok("logs", "logweb/app", "--since", "1h", "-o", "json").lines().toList();
        assertTrue(lines.size() >= 4, lines.toString());
        boolean stderr = false;
        for (String l : lines) {
            JsonNode o = JSON.readTree(l);
            assertEquals(List.of("component", "stream", "time", "line"), List.copyOf(iterable(o.fieldNames())), l);
            assertEquals("logweb.app", o.path("component").asText());
            assertNotNull(Instant.parse(o.path("time").asText()), l);
            stderr |= o.path("stream").asText().equals("stderr") && o.path("line").asText().equals("web warns");
        }
        assertTrue(stderr, "the stderr line is marked so: " + lines);
        JsonNode proc = JSON.readTree(mesh.ok("logs", "logproc", "--tail", "1", "-o", "json").strip());
        assertEquals("logproc.run", proc.path("component").asText());
        assertEquals("output", proc.path("stream").asText());
        assertTrue(proc.path("time").isNull(), "a process's line carries no time: " + proc);
    }

    static <T> List<T> iterable(java.util.Iterator<T> it) {
        List<T> all = new java.util.ArrayList<>();
        it.forEachRemaining(all::add);
        return all;
    }

    @Test
    @Order(5)
    void aFollowEndsWhenAPushReplacesTheContainer() throws Exception {
        File out = File.createTempFile("mesh-logs", ".out");
        Process cli = start(out, "logs", "logweb/app", "--follow", "--tail", "1");
        try {
            PackagedMesh.await("the follow prints new ticks", Duration.ofSeconds(20), () -> count(out, "web tick") >= 3);
            Files.writeString(dir.resolve("logweb.yaml"), web("two"));
            mesh.ok("catalogue", "add", dir.resolve("logweb.yaml").toString());
            mesh.ok("push", "--wait");
            assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the follow did not end after the replace: " + read(out));
            String said = read(out);
            assertEquals(0, cli.exitValue(), said);
            assertTrue(said.contains("the follow ended: component logweb.app was replaced"), said);
            assertFalse(said.contains("hello two"), "the new copy's lines are not the follow's: " + said);
            assertTrue(mesh.ok("logs", "logweb/app").contains("web says hello two"));
        } finally {
            cli.destroyForcibly();
            Files.deleteIfExists(out.toPath());
        }
    }

    @Test
    @Order(6)
    void aFollowEndsWhenAPushReplacesTheProcess() throws Exception {
        File out = File.createTempFile("mesh-logs", ".out");
        Process cli = start(out, "logs", "logproc", "--follow", "--tail", "1");
        try {
            PackagedMesh.await("the follow prints new ticks", Duration.ofSeconds(20), () -> count(out, "proc tick") >= 3);
            String ref = Files.readString(dir.resolve("logproc.yaml")).lines().filter(l -> l.contains("bundle:"))
                    .findFirst().orElseThrow().replaceFirst(".*bundle: *", "").strip();
            Files.writeString(dir.resolve("logproc.yaml"), process(ref, "two"));
            mesh.ok("catalogue", "add", dir.resolve("logproc.yaml").toString());
            mesh.ok("push", "--wait");
            assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the follow did not end after the replace: " + read(out));
            String said = read(out);
            assertEquals(0, cli.exitValue(), said);
            assertTrue(said.contains("the follow ended: component logproc.run was replaced"), said);
        } finally {
            cli.destroyForcibly();
            Files.deleteIfExists(out.toPath());
        }
    }

    @Test
    @Order(7)
    void aSigtermedFollowLeavesNoStreamOpenOnTheAgent() throws Exception {
        File out = File.createTempFile("mesh-logs", ".out");
        Process cli = start(out, "logs", "logweb", "--follow", "--tail", "0");
        try {
            PackagedMesh.await("the follow prints new ticks", Duration.ofSeconds(20), () -> count(out, "web tick") >= 2);
            assertEquals(2, mesh.agent("n2", "/v1/logs").size(), "both components' streams are open on n2");
            cli.destroy();   // SIGTERM, as Ctrl-C's neighbour
            assertTrue(cli.waitFor(20, TimeUnit.SECONDS), "the CLI did not end on SIGTERM");
            long killed = System.nanoTime();
            PackagedMesh.await("n2's agent stops reading", Duration.ofSeconds(30), () -> {
                try {
                    return mesh.agent("n2", "/v1/logs").isEmpty();
                } catch (Exception e) {
                    return false;
                }
            });
            System.err.printf("the agent closed its streams %.1f s after the CLI's SIGTERM%n", (System.nanoTime() - killed) / 1e9);
        } finally {
            cli.destroyForcibly();
            Files.deleteIfExists(out.toPath());
        }
    }

    @Test
    @Order(8)
    void whatCannotBeShownIsRefusedNamingIt() {
        PackagedMesh.Result idle = mesh.mesh("logs", "logidle");
        assertEquals(1, idle.exit(), idle.toString());
        assertTrue(idle.err().contains("module logidle runs nowhere"), idle.toString());
        PackagedMesh.Result unknown = mesh.mesh("logs", "nosuch");
        assertEquals(1, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().contains("unknown module nosuch"), unknown.toString());
        PackagedMesh.Result component = mesh.mesh("logs", "logweb/db");
        assertEquals(1, component.exit(), component.toString());
        assertTrue(component.err().contains("module logweb has no component db (it has logweb.app, logweb.side)"),
                component.toString());
    }

    @Test
    @Order(9)
    void aStoppedAgentEndsTheFollowWithAnErrorNamingIt() throws Exception {
        File out = File.createTempFile("mesh-logs", ".out");
        Process cli = start(out, "logs", "logproc", "--follow", "--tail", "0");
        long agent = mesh.agentPid("n3");
        try {
            PackagedMesh.await("the follow prints new ticks", Duration.ofSeconds(20), () -> count(out, "proc tick") >= 2);
            signal(agent, "STOP");   // keeps its connections open and answers nothing, as a hung machine does
            long stopped = System.nanoTime();
            assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the follow did not end with n3's agent stopped: " + read(out));
            double seconds = (System.nanoTime() - stopped) / 1e9;
            String said = read(out);
            assertEquals(1, cli.exitValue(), said);
            assertTrue(said.contains("node n3's agent sent nothing for 30 s, not even its keep-alive (every 10 s)"), said);
            System.err.printf("a stopped agent ended the follow after %.1f s%n", seconds);
            signal(agent, "CONT");
            PackagedMesh.await("n3's agent, going on, holds no stream", Duration.ofSeconds(30), () -> {
                try {
                    return mesh.agent("n3", "/v1/logs").isEmpty();
                } catch (Exception e) {
                    return false;
                }
            });
        } finally {
            signal(agent, "CONT");
            cli.destroyForcibly();
            Files.deleteIfExists(out.toPath());
        }
    }

    @Test
    @Order(10)
    void aStoppedControllerEndsTheFollowWithAnError() throws Exception {
        File out = File.createTempFile("mesh-logs", ".out");
        Process cli = start(out, "logs", "logweb/app", "--follow", "--tail", "0");
        long controller = mesh.controllerJvm().pid();   // the JVM, not its shim
        try {
            PackagedMesh.await("the follow prints new ticks", Duration.ofSeconds(20), () -> count(out, "web tick") >= 2);
            signal(controller, "STOP");
            long stopped = System.nanoTime();
            assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the follow did not end with the controller stopped: " + read(out));
            double seconds = (System.nanoTime() - stopped) / 1e9;
            String said = read(out);
            assertEquals(1, cli.exitValue(), said);
            assertTrue(said.contains("sent nothing for 30 s, not even its keep-alive: it is stopped, or the link to it is down"), said);
            System.err.printf("a stopped controller ended the follow after %.1f s%n", seconds);
        } finally {
            signal(controller, "CONT");
            cli.destroyForcibly();
            Files.deleteIfExists(out.toPath());
        }
    }

    static void signal(long pid, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal + " " + pid);
    }

    Process start(File out, String... args) throws IOException {
        ProcessBuilder b = new ProcessBuilder(PackagedMesh.command(PackagedMesh.app(), null, List.of(args)))
                .redirectErrorStream(true).redirectOutput(out).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(mesh.cliEnv());
        return b.start();
    }

    static long count(File out, String text) {
        return read(out).lines().filter(l -> l.contains(text)).count();
    }

    static String read(File out) {
        try {
            return Files.readString(out.toPath());
        } catch (IOException e) {
            return "";
        }
    }
}
