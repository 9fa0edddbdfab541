package mesh.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledNode;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.Test;

/**
 * InstallerCrashIT: {@code mesh install} SIGKILLed during each of its steps 2 to 7 in turn, rerun
 * each time, ends in the same mesh as an install never killed on the same node (run first, then
 * uninstalled with its data): the same nodes, catalogue, roster, containers and supervised processes
 * ({@link MeshState}), one agent, one controller process (no temporary controller left), the mesh
 * usable through the config file.
 */
class InstallerCrashIT {

    @Test
    void anInstallKilledDuringEachStepAndRerunEndsInTheSameMesh() throws Exception {
        TestbedNodes.Node n1 = TestbedNodes.up(1).get(0);
        InstalledMesh.clearNode(n1, "mesh-installer-crash-it");
        try (InstalledNode target = new InstalledNode(n1, Files.createTempDirectory("mesh-installer-crash-it"))) {
            // an install never killed first: the state every killed and rerun one must end in
            PackagedMesh.Result whole = target.mesh(target.seatArgs());
            assertEquals(0, whole.exit(), whole.toString());
            MeshState uninterrupted = MeshState.of(target);
            assertEquals(3, uninterrupted.catalogue().size(), uninterrupted.toString());
            PackagedMesh.Result gone = target.mesh(List.of("uninstall", "--delete-data", "--state-dir", target.state().toString(),
                    "--config-dir", target.config().toString()));
            assertEquals(0, gone.exit(), gone.toString());

            List<String> killedAt = new ArrayList<>();
            for (String step : List.of("agent", "store", "registry", "bundle", "controller", "pivot")) {
                if (killDuring(target, step)) {
                    killedAt.add(step);
                }
            }
            assertEquals(List.of("agent", "store", "registry", "bundle", "controller", "pivot"), killedAt);
            PackagedMesh.Result last = target.mesh(target.seatArgs());
            assertEquals(0, last.exit(), last.toString());

            MeshState after = MeshState.of(target);
            assertEquals(uninterrupted.nodes(), after.nodes(), "nodes");
            assertEquals(uninterrupted.catalogue(), after.catalogue(), "catalogue");
            assertEquals(uninterrupted.roster(), after.roster(), "roster");
            assertEquals(uninterrupted.containers(), after.containers(), "containers");
            assertEquals(uninterrupted.processes(), after.processes(), "processes");
            assertTrue(after.processes().stream().allMatch(p -> p.endsWith("live copies=1")), after.processes().toString());

            assertEquals(0, target.mesh(List.of("node", "list")).exit());
            PackagedMesh.Result status = target.mesh(List.of("status"));
            assertEquals(0, status.exit(), status.toString());
            List<String> controllers = target.processes().stream().map(h -> h.info().commandLine().orElse(""))
                    .filter(c -> c.contains("controller serve") && server(c)).toList();
            assertEquals(1, controllers.size(), controllers.toString());
            assertTrue(!controllers.get(0).contains(target.state().resolve("app").toString()), "the temporary controller runs: " + controllers);
            List<String> agents = target.processes().stream().map(h -> h.info().commandLine().orElse(""))
                    .filter(c -> c.contains("host serve") && server(c)).toList();
            assertEquals(1, agents.size(), agents.toString());
            try (var docker = TestbedNodes.client(n1)) {
                List<String> names = docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", n1.name()))
                        .exec().stream().map(c -> c.getNames()[0] + " " + c.getState()).sorted().toList();
                assertEquals(List.of("/mesh-registry.registry running", "/mesh-store.postgres running"), names);
            }
        }
    }

    /** Whether a command line is a server's process itself (a JVM, or the native executable), not a shell around one. */
    private static boolean server(String commandLine) {
        return commandLine.contains("java") || commandLine.contains(mesh.install.RunningMesh.NATIVE_EXECUTABLE);
    }

    /** Runs the install and SIGKILLs it 0.3 s into {@code step}; false if the step was never reached. */
    private static boolean killDuring(InstalledNode target, String step) throws Exception {
        File err = File.createTempFile("mesh-install", ".err");
        ProcessBuilder b = new ProcessBuilder(PackagedMesh.command(target.app, target.node.name(), target.seatArgs()))
                .redirectError(err).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().put("HOME", target.home().toString());
        Process p = b.start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            String line;
            while ((line = out.readLine()) != null) {
                System.err.println("install: " + line);
                if (line.matches("\\[\\d/8\\] " + step + ": .* …")) {
                    Thread.sleep(300);
                    p.destroyForcibly();   // SIGKILL: the installer's children (agent, temporary controller) live on
                    p.waitFor(30, TimeUnit.SECONDS);
                    return true;
                }
            }
        } finally {
            p.waitFor(5, TimeUnit.MINUTES);
            Files.deleteIfExists(err.toPath());
        }
        return false;
    }
}
