package mesh.controller;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * MeshCli runs the packaged {@code mesh} (the jar Failsafe's {@code package} built) as a real
 * process, the way an operator does, against a controller given by MESH_CONTROLLER and MESH_TOKEN.
 */
final class MeshCli {

    /** Run is one finished process: its exit code and what it wrote. */
    record Run(List<String> args, int exit, String stdout, String stderr) {
        @Override
        public String toString() {
            return "mesh " + String.join(" ", args) + " → exit " + exit + "\n--- stdout:\n" + stdout + "--- stderr:\n" + stderr;
        }
    }

    private final Path jar;
    private final String controller;
    private final String token;

    MeshCli(String controller, String token) {
        this.jar = locateJar();
        this.controller = controller;
        this.token = token;
    }

    /**
     * Failsafe sets {@code native.image.path} to {@code ${project.build.directory}/<final name>-runner},
     * so the build directory is its parent, whatever {@code -DbuildDir} says; {@code target} otherwise.
     */
    static Path locateJar() {
        String runner = System.getProperty("native.image.path");
        Path buildDir = runner == null ? Path.of("target") : Path.of(runner).toAbsolutePath().getParent();
        Path jar = buildDir.resolve("quarkus-app").resolve("quarkus-run.jar");
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError("no packaged mesh at " + jar + " (native.image.path=" + runner
                    + "): run this test with 'mvn verify', which packages first");
        }
        return jar;
    }

    Run run(String... args) {
        return run(Map.of(), args);
    }

    /** Runs {@code mesh args...}; {@code env} overrides MESH_CONTROLLER / MESH_TOKEN if it names them. */
    Run run(Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        try {
            File out = File.createTempFile("mesh-cli-out", ".txt");
            File err = File.createTempFile("mesh-cli-err", ".txt");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out).redirectError(err)
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
                // nothing of the test runner's own mesh configuration leaks into the verb
                builder.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
                builder.environment().put("MESH_CONTROLLER", controller);
                builder.environment().put("MESH_TOKEN", token);
                builder.environment().putAll(env);
                Process process = builder.start();
                if (!process.waitFor(90, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError("mesh " + String.join(" ", args) + " did not finish in 90 s");
                }
                return new Run(List.of(args), process.exitValue(), Files.readString(out.toPath()), Files.readString(err.toPath()));
            } finally {
                Files.deleteIfExists(out.toPath());
                Files.deleteIfExists(err.toPath());
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running mesh", e);
        }
    }
}
