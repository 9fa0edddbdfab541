package mesh.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mesh.testbed.PackagedMesh;

/**
 * MeshProcess is a mesh server (controller or host agent) run in the background as systemd would,
 * optionally inside a node's network namespace. Its output goes to a file under the build
 * directory, so a failing test leaves its evidence.
 */
final class MeshProcess implements AutoCloseable {

    static final Path LOGS = PackagedMesh.buildDir().resolve("e2e-logs");

    final Process process;

    private MeshProcess(Process process) {
        this.process = process;
    }

    /** Starts a server; {@code netns} runs it inside that network namespace (a simulated node), or null. */
    static MeshProcess serve(String name, String netns, Map<String, String> env, String... args) throws IOException {
        Files.createDirectories(LOGS);
        Path log = LOGS.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(mesh.testbed.Launcher.shared().command(netns, List.of(args)))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        pb.environment().putAll(env);
        plainUnlessTls(pb.environment());
        return new MeshProcess(pb.start());
    }

    /**
     * A test server given no TLS files serves plain HTTP (MESH_PLAIN_HTTP=yes, docs/trust.md): the
     * one place the end-to-end tests opt out; TlsIT and SecurityIT give the files and get HTTPS.
     */
    static void plainUnlessTls(Map<String, String> env) {
        if (!env.containsKey("MESH_TLS_CERT")) {
            env.putIfAbsent("MESH_PLAIN_HTTP", "yes");
        }
    }

    /** Kills it hard, as a crash or an operator's kill -9 would. */
    void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            kill();
        }
    }

}
