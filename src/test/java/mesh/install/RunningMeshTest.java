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
        assertTrue(other.endsWith(" " + flags.getProperty("cli") + " -jar \"$app/quarkus-run.jar\" \"$@\""), other);
        assertTrue(other.contains("\"$cli_aot\" -Xlog:aot=off,cds=off "), other);
        assertTrue(host.contains("\"$serve_aot\" -Xlog:aot=off,cds=off ") && controller.contains("\"$serve_aot\""), host);
    }

    /** Each cache is used only when it is there; one the JVM refuses (another JDK, a changed jar) puts nothing on stdout. */
    @Test
    void theLauncherUsesEachCacheWhenPresentAndAStaleOneSilently(@TempDir Path dir) throws Exception {
        Path app = Files.createDirectories(dir.resolve("app/bin"));
        Files.writeString(app.resolve("mesh"), RunningMesh.launcherScript()
                .replaceAll("exec '[^']*' ", "exec " + dir.resolve("echo-args") + " "));
        Files.writeString(dir.resolve("echo-args"), "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
        for (Path p : List.of(app.resolve("mesh"), dir.resolve("echo-args"))) {
            p.toFile().setExecutable(true);
        }
        assertEquals(List.of("-XX:AOTMode=auto"), aotArgs(app, "node", "list"));
        Files.writeString(dir.resolve("app/mesh.aot"), "not a cache");
        assertEquals(List.of("-XX:AOTCache=" + dir.resolve("app/mesh.aot")), aotArgs(app, "node", "list"));
        assertEquals(List.of("-XX:AOTMode=auto"), aotArgs(app, "host", "serve"));
        Files.writeString(dir.resolve("app/serve.aot"), "not a cache");
        assertEquals(List.of("-XX:AOTCache=" + dir.resolve("app/serve.aot")), aotArgs(app, "host", "serve"));

        // a real JVM given a cache it cannot use, as the launcher gives it: starts, says nothing of it
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:AOTCache=" + dir.resolve("app/mesh.aot"), "-Xlog:aot=off,cds=off", "-version"));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor());
        assertEquals("", out);
    }

    private static List<String> aotArgs(Path bin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(bin.resolve("mesh").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> out = new String(p.getInputStream().readAllBytes()).lines()
                .filter(l -> l.startsWith("-XX:AOT")).toList();
        assertEquals(0, p.waitFor());
        return out;
    }

    /**
     * A native install's launcher runs the executable beside it (here a stand-in that prints its arguments): the serve
     * verbs with their heap ceilings before the verb, every other verb with its arguments alone, quoting kept.
     */
    @Test
    void theNativeLauncherGivesEachServeVerbItsHeapCeilingsAndTheOtherVerbsNone(@TempDir Path dir) throws Exception {
        Properties flags = RunningMesh.serveFlags();
        Path bin = Files.createDirectories(dir.resolve("app/bin"));
        Files.writeString(bin.resolve("mesh"), RunningMesh.nativeLauncherScript());
        Files.writeString(dir.resolve("app").resolve(RunningMesh.NATIVE_EXECUTABLE), "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
        for (Path p : List.of(bin.resolve("mesh"), dir.resolve("app").resolve(RunningMesh.NATIVE_EXECUTABLE))) {
            p.toFile().setExecutable(true);
        }
        List<String> host = new ArrayList<>(List.of(flags.getProperty("native-host").split(" ")));
        host.addAll(List.of("host", "serve", "--config", "/etc/mesh/host.env"));
        assertEquals(host, args(bin, "host", "serve", "--config", "/etc/mesh/host.env"));
        List<String> controller = new ArrayList<>(List.of(flags.getProperty("native-controller").split(" ")));
        controller.addAll(List.of("controller", "serve"));
        assertEquals(controller, args(bin, "controller", "serve"));
        assertEquals(List.of("node", "list", "a b*"), args(bin, "node", "list", "a b*"));
        assertTrue(flags.getProperty("native-host").contains("-Xmx64m"), flags.getProperty("native-host"));
    }

    private static List<String> args(Path bin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(bin.resolve("mesh").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> out = new String(p.getInputStream().readAllBytes()).lines().toList();
        assertEquals(0, p.waitFor(), out.toString());
        return out;
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
