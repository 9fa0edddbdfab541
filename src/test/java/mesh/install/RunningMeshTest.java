package mesh.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RunningMeshTest: the launcher mesh install writes runs the serve verbs with the flags of mesh/serve-flags.properties. */
class RunningMeshTest {

    @Test
    void theServeFlagsAreAcceptedByThisJava() throws Exception {
        Properties flags = RunningMesh.serveFlags();
        for (String verb : List.of("host", "controller")) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            command.addAll(List.of(flags.getProperty("serve").split(" ")));
            command.addAll(List.of(flags.getProperty(verb).split(" ")));
            command.add("-version");
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), verb + " serve's flags: " + out);
        }
    }

    @Test
    void theLauncherGivesEachServeVerbItsFlagsAndTheOtherVerbsNone(@TempDir Path dir) throws Exception {
        Properties flags = RunningMesh.serveFlags();
        String script = RunningMesh.launcherScript();
        Path launcher = dir.resolve("mesh");
        Files.writeString(launcher, script);
        assertEquals(0, new ProcessBuilder("sh", "-n", launcher.toString()).start().waitFor(), script);
        String host = line(script, "\"host serve\")");
        String controller = line(script, "\"controller serve\")");
        assertTrue(host.contains(" " + flags.getProperty("serve") + " " + flags.getProperty("host") + " -jar "), host);
        assertTrue(controller.contains(" " + flags.getProperty("serve") + " " + flags.getProperty("controller") + " -jar "), controller);
        String other = script.lines().filter(l -> l.startsWith("exec ")).findFirst().orElseThrow();
        assertTrue(!other.contains("-XX:") && other.endsWith("-jar \"$app/quarkus-run.jar\" \"$@\""), other);
    }

    @Test
    void scriptsInstallReadsTheSameFile() throws IOException {
        String install = Files.readString(Path.of("scripts/install"));
        assertTrue(install.contains("src/main/resources/mesh/serve-flags.properties"), "scripts/install must read the serve flags' file");
    }

    private static String line(String script, String start) {
        return script.lines().filter(l -> l.strip().startsWith(start)).findFirst().orElseThrow(() -> new AssertionError(start + " in\n" + script));
    }
}
