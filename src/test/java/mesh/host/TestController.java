package mesh.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import mesh.testbed.PackagedMesh;

/**
 * TestController is a real controller for a host IT that needs the operator's verbs ({@code mesh status},
 * {@code mesh push}) in front of its agent: the packaged {@code mesh controller serve} in this network
 * namespace on 127.0.0.1, on a database of its own in the test bed's PostgreSQL (created here, dropped on
 * close), its output in a log under the run folder. {@link #env} is what a CLI verb needs to reach it.
 */
final class TestController implements AutoCloseable {

    static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/";

    final String database = "mesh_it_" + UUID.randomUUID().toString().substring(0, 8);
    final Map<String, String> env;
    private final Process process;

    TestController(Path log) throws IOException, SQLException, InterruptedException {
        try (Connection c = DriverManager.getConnection(POSTGRES + "postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
        int port = PackagedMesh.freePort();
        String token = UUID.randomUUID().toString().replace("-", "");
        env = Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + port, "MESH_TOKEN", token);
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = new ProcessBuilder(mesh.testbed.Launcher.shared().command(null, List.of("controller", "serve")))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        pb.environment().putAll(Map.of("MESH_STORE_URL", POSTGRES + database, "MESH_STORE_USER", "mesh",
                "MESH_STORE_PASSWORD", "mesh", "MESH_CONTROLLER_TOKEN", token, "MESH_CONTROLLER_LISTEN", "127.0.0.1:" + port,
                "MESH_PLAIN_HTTP", "yes"));   // plain HTTP on loopback: tests only (docs/trust.md)
        process = pb.start();
        PackagedMesh.await("the controller answers", Duration.ofSeconds(60), () -> run("node", "list").exit() == 0);
    }

    /** Runs one operator verb (the packaged CLI) against this controller. */
    PackagedMesh.Result run(String... args) {
        return PackagedMesh.run(env, args);
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
        }
        try (Connection c = DriverManager.getConnection(POSTGRES + "postgres", "mesh", "mesh")) {
            c.createStatement().execute("drop database if exists " + database + " with (force)");
        }
    }
}
