package mesh.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.StreamSupport;
import mesh.install.RunningMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * InstalledMeshIT checks the fixture every end-to-end IT stands on: the mesh it raises is the one
 * {@code mesh install} and {@code --join} make (two nodes, HTTPS, the CLI on install's config file), and
 * its servers are the installed program: each agent and the controller run from the launcher in a
 * state folder with the serve flags of {@code mesh/serve-flags.properties}, as {@code /proc} shows them.
 * On that mesh it also checks what an operator does on an installed node afterwards: the join line run
 * again without its token brings a killed agent back, and the local host verbs find the installed
 * agent's state through {@code --config-dir}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InstalledMeshTest
class InstalledMeshIT {

    InstalledMesh mesh;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(2);
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
    }

    static Properties flags() throws Exception {
        Properties p = new Properties();
        try (var in = Files.newInputStream(Path.of("src/main/resources/mesh/serve-flags.properties"))) {
            p.load(in);
        }
        return p;
    }

    /**
     * What the command line of a server runs, as install starts it: a launcher (the state folder's for the agent, the
     * bundle's for the controller) with the serve flags of {@code verb} ("host", "controller") and the jar; with a
     * native install, the executable beside that launcher with the verb's heap ceilings, and no JVM.
     */
    String expectedStart(String verb) throws Exception {
        Properties flags = flags();
        return PackagedMesh.NATIVE != null ? "/" + RunningMesh.NATIVE_EXECUTABLE + " "
                + flags.getProperty("native-" + verb) + " " + verb + " serve"
                : flags.getProperty("serve") + " " + flags.getProperty(verb) + " -jar";
    }

    static String cmdline(long pid) throws Exception {
        return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline"))).replace('\0', ' ');
    }

    @Test
    void bothNodesJoinedOverHttpsAndTheCliUsesTheConfigFileInstallWrote() throws Exception {
        assertTrue(mesh.cliEnv().get("MESH_CONTROLLER").startsWith("https://" + mesh.testbed("n1").address() + ":7700"),
                mesh.cliEnv().toString());
        JsonNode nodes = mesh.json("node", "list");
        assertEquals(List.of("n1", "n2"), StreamSupport.stream(nodes.spliterator(), false).map(n -> n.get("name").asText()).sorted().toList());
        assertEquals("n2", mesh.agent("n2", "/v1/status").get("node").asText());
    }

    @Test
    void everyPartReportsTheBuildItIsAndNodeListShowsTheAgentsOnceHeard() throws Exception {
        String version = mesh.ok("--version").strip();
        String commit = git("rev-parse", "--short=12", "HEAD");
        assertTrue(version.endsWith(" (" + commit + ")"), "mesh --version names the commit it was built from ("
                + commit + "): " + version);
        String words = version.substring("mesh ".length());
        JsonNode controller = mesh.controller("/v1/mesh/build");
        assertEquals(commit, controller.get("commit").asText(), controller.toString());
        for (String node : List.of("n1", "n2")) {
            assertEquals(commit, mesh.agent(node, "/v1/status").get("build").get("commit").asText(), node);
        }

        PackagedMesh.Result status = mesh.mesh("status");
        assertEquals(0, status.exit(), status.toString());
        assertTrue(status.out().lines().findFirst().orElse("").contains("VERSION"), status.out());
        assertEquals(2, status.out().lines().filter(l -> l.matches("n[12] .*") && l.contains(words)).count(), status.out());
        assertFalse(status.err().contains("builds"), "one build runs everywhere: " + status.err());

        PackagedMesh.Result list = mesh.mesh("node", "list", "-o", "json");
        assertEquals(0, list.exit(), list.toString());
        for (JsonNode n : mesh.json("node", "list")) {
            assertEquals(commit, n.path("agentBuild").path("commit").asText(), "heard at the status: " + n);
        }
        assertFalse(list.err().contains("builds"), "one build runs everywhere: " + list.err());
    }

    static String git(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0, command + ": " + out);
        return out;
    }

    @Test
    void everyServerRunsFromItsStateFolderWithTheServeFlags() throws Exception {
        for (String name : mesh.names()) {
            String agent = cmdline(mesh.agentPid(name));
            assertTrue(agent.contains(mesh.node(name).state().resolve("app").toString()), agent);
            assertTrue(agent.contains(expectedStart("host")), agent);
            assertTrue(agent.endsWith("host serve --config " + mesh.node(name).config().resolve("host.env") + " "), agent);
        }
        // the agent's record names the supervisor's shim; the JVM is its child, run by the bundle's launcher
        long jvm = ProcessHandle.of(mesh.controllerPid()).orElseThrow().descendants()
                .filter(h -> h.info().commandLine().orElse("").contains("controller serve")).findFirst().orElseThrow().pid();
        String controller = cmdline(jvm);
        assertTrue(controller.contains(expectedStart("controller")), controller);
        assertTrue(controller.contains(mesh.seat().state().toString()), controller);
    }

    /**
     * Install copies the JDK AOT caches of the app it runs from (trained there once per build) into each
     * state folder, and the launcher starts from them: the agent maps its state folder's serve.aot (the JVM
     * maps a cache only once it has accepted it), and a verb through the launcher with -XX:AOTMode=on
     * (which refuses to start without its cache) answers over HTTPS.
     */
    @Test
    void theAgentAndTheVerbsStartFromTheAotCachesInTheStateFolder() throws Exception {
        if (PackagedMesh.NATIVE != null) {
            theStateFolderHoldsTheNativeExecutableAndNoJvmCache();
            return;
        }
        for (String name : mesh.names()) {
            Path app = mesh.node(name).state().resolve("app");
            for (String cache : List.of("mesh.aot", "serve.aot")) {
                assertTrue(Files.size(app.resolve(cache)) > 10 << 20, name + ": " + app.resolve(cache));
            }
            long pid = mesh.agentPid(name);
            assertTrue(cmdline(pid).contains("-XX:AOTCache=" + app.resolve("serve.aot")), cmdline(pid));
            assertTrue(Files.readString(Path.of("/proc/" + pid + "/maps")).contains(app.resolve("serve.aot").toString()),
                    name + "'s agent did not map " + app.resolve("serve.aot"));
        }
        ProcessBuilder b = new ProcessBuilder(mesh.seat().state().resolve("app/bin/mesh").toString(), "node", "list");
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(mesh.cliEnv());
        b.environment().put("JDK_JAVA_OPTIONS", "-XX:AOTMode=on");
        Process p = b.redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("n2"), out);
    }

    /**
     * A native install copies the executable it runs into the state folder beside its launcher bin/mesh, and no JVM
     * cache comes along; the agent is that executable, with its heap ceilings.
     */
    void theStateFolderHoldsTheNativeExecutableAndNoJvmCache() throws Exception {
        for (String name : mesh.names()) {
            Path app = mesh.node(name).state().resolve("app");
            Path executable = app.resolve(RunningMesh.NATIVE_EXECUTABLE);
            assertEquals(-1, Files.mismatch(PackagedMesh.NATIVE, executable), name + ": " + executable + " is the native mesh");
            try (var files = Files.list(app)) {
                assertEquals(List.of(), files.filter(f -> f.toString().endsWith(".aot")).toList(), name);
            }
            assertEquals(executable, Path.of("/proc/" + mesh.agentPid(name) + "/exe").toRealPath(), name);
            assertTrue(cmdline(mesh.agentPid(name)).contains(expectedStart("host")), cmdline(mesh.agentPid(name)));
        }
    }

    @Test
    void aKilledAgentStartsAgainWithTheSameLauncherLineAndTheControllerKeepsItsPid() throws Exception {
        long controller = mesh.controllerPid();
        long before = mesh.agentPid("n1");
        mesh.restartAgent("n1", Map.of());
        assertNotEquals(before, mesh.agentPid("n1"));
        assertTrue(cmdline(mesh.agentPid("n1")).contains(expectedStart("host")), cmdline(mesh.agentPid("n1")));
        mesh.awaitController(java.time.Duration.ofSeconds(30));
        assertEquals(controller, mesh.controllerPid(), "the restarted agent adopted the controller");
    }

    /** A module of one container on n2, pushed once, for the tests that need n2 to run something and hold a declaration. */
    private boolean n2Runs;

    void aModuleRunsOnN2() throws Exception {
        if (n2Runs) {
            return;
        }
        Path file = Files.createTempFile(mesh.seat().root, "rejoin", ".yaml");
        Files.writeString(file, """
                module: rejoin
                components:
                  rejoin.web:
                    image: mesh-test/busybox:1
                    args: [httpd, -f, -p, "8080"]
                """);
        mesh.ok("catalogue", "add", file.toString());
        mesh.ok("assign", "n2", "rejoin");
        mesh.ok("push", "--wait");
        n2Runs = true;
    }

    /** The mesh's containers on n2, name to id. */
    Map<String, String> containers() {
        Map<String, String> ids = new java.util.TreeMap<>();
        mesh.engine("n2").listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", "n2")).exec()
                .forEach(c -> ids.put(String.join(",", c.getNames()), c.getId()));
        return ids;
    }

    @Test
    void theJoinLineRunAgainWithoutItsTokenBringsAKilledAgentBackAndReplacesNothing() throws Exception {
        aModuleRunsOnN2();
        Map<String, String> before = containers();
        assertTrue(before.keySet().stream().anyMatch(n -> n.contains("rejoin.web")), before.toString());
        InstalledNode n2 = mesh.node("n2");
        List<String> rerun = List.of("install", "--join", mesh.cliEnv().get("MESH_CONTROLLER"), "--engine", n2.node.dockerHost(),
                "--state-dir", n2.state().toString(), "--config-dir", n2.config().toString());

        mesh.killAgent("n2");
        PackagedMesh.Result again = n2.mesh(rerun);
        assertEquals(0, again.exit(), again.toString());
        for (String step : List.of("preflight", "agent", "join")) {
            assertTrue(again.out().lines().anyMatch(l -> l.matches("\\[\\d/3\\] " + step + ": already done")), step + ":\n" + again);
        }
        assertTrue(again.out().contains("node n2 joined this mesh before"), again.toString());
        assertTrue(again.out().contains("the host agent did not answer: started it again"), again.toString());
        assertEquals("n2", mesh.agent("n2", "/v1/status").get("node").asText());
        assertEquals(before, containers(), "the rerun replaced a container of n2");

        // another node's name is refused, naming the one this machine joined as; the agent runs on
        List<String> other = new java.util.ArrayList<>(rerun);
        other.addAll(List.of("--node", "n9"));
        PackagedMesh.Result refused = n2.mesh(other);
        assertEquals(1, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("--node n9: this machine joined the mesh as node n2"), refused.toString());
        assertEquals("n2", mesh.agent("n2", "/v1/status").get("node").asText());
        assertEquals(before, containers());
    }

    @Test
    void theHostVerbsFindTheInstalledAgentsStateThroughItsConfigDir() throws Exception {
        aModuleRunsOnN2();
        InstalledNode n2 = mesh.node("n2");
        PackagedMesh.Result history = n2.mesh(List.of("host", "history", "--config-dir", n2.config().toString(), "-o", "json"));
        assertEquals(0, history.exit(), history.toString());
        List<Long> listed = StreamSupport.stream(InstalledMesh.JSON.readTree(history.out()).spliterator(), false)
                .map(e -> e.get("generation").asLong()).toList();
        List<Long> kept = StreamSupport.stream(mesh.agent("n2", "/v1/declarations").spliterator(), false)
                .map(e -> e.get("generation").asLong()).toList();
        assertFalse(listed.isEmpty(), history.toString());
        assertEquals(kept, listed, "what the agent keeps, as its API lists it");
        PackagedMesh.Result table = n2.mesh(List.of("host", "history", "--config-dir", n2.config().toString()));
        assertEquals(0, table.exit(), table.toString());
        assertTrue(table.out().contains("pushed by"), table.toString());

        InstalledNode seat = mesh.seat();
        PackagedMesh.Result logs = seat.mesh(List.of("host", "logs", "mesh-controller.serve", "--config-dir",
                seat.config().toString()));
        assertEquals(0, logs.exit(), logs.toString());
        assertTrue(logs.out().lines().anyMatch(l -> l.startsWith("mesh controller: store ")
                && l.endsWith("listening on " + seat.node.address() + ":7700")), "the controller's first line:\n" + logs);
        PackagedMesh.Result last = seat.mesh(List.of("host", "logs", "mesh-controller.serve", "--config-dir",
                seat.config().toString(), "-n", "1"));
        assertEquals(0, last.exit(), last.toString());
        assertEquals(1, last.out().lines().count(), last.toString());

        Path nowhere = seat.root.resolve("no-such-etc");
        PackagedMesh.Result missing = seat.mesh(List.of("host", "logs", "mesh-controller.serve", "--config-dir", nowhere.toString()));
        assertEquals(1, missing.exit(), missing.toString());
        assertTrue(missing.err().contains(nowhere.resolve("host.env") + " does not exist"), missing.toString());
    }
}
