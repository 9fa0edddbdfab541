package mesh.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import mesh.model.Poll;
import mesh.store.MigrationCommits;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledNode;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.Test;

/**
 * TempControllerLeftBehindIT: {@code mesh install} SIGKILLed in the controller step right after it started its
 * temporary controller and before it wrote its pid down (held there by {@link InstallTestHold}; InstallerCrashIT's
 * kill 0.3 s into the step lands there on a loaded machine), then rerun at once while that controller is still
 * starting. The rerun must end the one left behind, start its own and finish the install: one controller process
 * at the end (the permanent one), the left one gone. Twice, each on a fresh store (the store's migrations are
 * still to run when the two controllers start, as in the crash test), uninstalled with its data in between. Each
 * migration the controller ran is committed with its history row (a controller ended mid-migration once left one
 * applied and unrecorded, and the rerun's controller failed on it).
 */
class TempControllerLeftBehindIT {

    private static final int ROUNDS = Integer.getInteger("mesh.it.rounds", 2);

    @Test
    void aTemporaryControllerLeftStartingByAKilledInstallIsEndedByTheRerun() throws Exception {
        TestbedNodes.Node n1 = TestbedNodes.up(1).get(0);
        InstalledMesh.clearNode(n1, "mesh-temp-left-behind-it");
        try (InstalledNode target = new InstalledNode(n1, Files.createTempDirectory("mesh-temp-left-behind-it"))) {
            for (int round = 1; round <= ROUNDS; round++) {
                ProcessHandle left = killRightAfterTheTempControllerStarted(target);
                assertTrue(left.isAlive(), "round " + round + ": the killed installer's temporary controller runs on");

                PackagedMesh.Result rerun = target.mesh(target.seatArgs());
                assertEquals(0, rerun.exit(), "round " + round + ": " + rerun);
                assertTrue(rerun.out().contains("ended the temporary controller an earlier run left (pid " + left.pid() + ")"),
                        "round " + round + ": " + rerun.out());

                assertFalse(left.isAlive(), "round " + round + ": the temporary controller the killed installer left (pid "
                        + left.pid() + ") still runs after the rerun");
                List<String> controllers = controllers(target);
                assertEquals(1, controllers.size(), "round " + round + ": " + controllers);
                assertFalse(controllers.get(0).contains(target.state().resolve("app").toString()),
                        "round " + round + ": a temporary controller runs: " + controllers);
                try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + n1.address() + ":5432/mesh", "mesh",
                        Files.readString(target.state().resolve("install/store-password")).strip())) {
                    assertEquals(List.of(), MigrationCommits.recordedApart(c),
                            "round " + round + ": migrations the controller recorded apart from their own transaction");
                }
                if (round < ROUNDS) {
                    PackagedMesh.Result gone = target.mesh(List.of("uninstall", "--delete-data", "--state-dir",
                            target.state().toString(), "--config-dir", target.config().toString()));
                    assertEquals(0, gone.exit(), gone.toString());
                }
            }
        }
    }

    /** The controller servers (JVM or native, not the shells around them) whose command line names this test's folder. */
    private static List<String> controllers(InstalledNode target) {
        return target.processes().stream().map(h -> h.info().commandLine().orElse(""))
                .filter(c -> c.contains("controller serve") && (c.contains("java") || c.contains(RunningMesh.NATIVE_EXECUTABLE)))
                .toList();
    }

    /**
     * Runs the install held right after its temporary controller started, waits for that process, SIGKILLs the
     * installer and returns the temporary controller it leaves behind.
     */
    private static ProcessHandle killRightAfterTheTempControllerStarted(InstalledNode target) throws Exception {
        Path hold = target.root.resolve("install-hold");
        Files.writeString(hold, InstallTestHold.TEMP_CONTROLLER_STARTED + "\n");
        File err = File.createTempFile("mesh-install", ".err");
        ProcessBuilder b = new ProcessBuilder(PackagedMesh.command(target.app, target.node.name(), target.seatArgs()))
                .redirectError(err).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().put("HOME", target.home().toString());
        b.environment().put(InstallTestHold.VARIABLE, hold.toString());
        Process p = b.start();
        List<String> said = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            String line;
            while ((line = out.readLine()) != null) {
                System.err.println("install: " + line);
                said.add(line);
                if (line.matches("\\[\\d/8\\] controller: .* …")) {
                    String app = target.state().resolve("app").toString();
                    Poll.Result<ProcessHandle> started = Poll.until(Duration.ofSeconds(60), Duration.ofMillis(50), () -> {
                        Optional<ProcessHandle> temp = p.descendants().filter(h -> h.info().commandLine()
                                .map(c -> c.contains(app) && c.contains("controller serve")).orElse(false)).findFirst();
                        return temp.isPresent() ? Poll.got(temp.get()) : Poll.notYet("no temporary controller yet");
                    });
                    p.destroyForcibly();   // SIGKILL: held before it wrote the pid of the controller it started
                    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the installer did not end after SIGKILL");
                    if (started instanceof Poll.Answered<ProcessHandle> a) {
                        return a.value();
                    }
                    throw new AssertionError("the installer started no temporary controller within 60 s: " + said);
                }
            }
        } finally {
            p.waitFor(5, TimeUnit.MINUTES);
            Files.deleteIfExists(err.toPath());
            Files.deleteIfExists(hold);
        }
        throw new AssertionError("the install never reached its controller step: exit " + p.exitValue() + ", " + said);
    }
}
