package mesh.testbed;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * InstalledNode is one simulated node a test installs mesh on, with everything the install writes
 * kept under one temporary folder (state dir, config dir, the operator's HOME), so that a test can
 * run the packaged {@code mesh install} inside the node's namespace and leave nothing behind.
 * {@link InstalledMesh} raises a whole mesh of them; InstallerIT installs them one by one.
 */
public final class InstalledNode implements AutoCloseable {

    public final TestbedNodes.Node node;
    /** The node's name in the mesh: the test-bed node's own, unless a test names it otherwise. */
    public final String name;
    public final Path root;
    public final Path app;

    public InstalledNode(TestbedNodes.Node node, Path root) throws IOException {
        this(node, node.name(), root);
    }

    public InstalledNode(TestbedNodes.Node node, String name, Path root) throws IOException {
        this(node, name, root, null);
    }

    /** As above, installing the app folder {@code build} (another build's, {@link OtherBuild}) unless it is null. */
    public InstalledNode(TestbedNodes.Node node, String name, Path root, Path build) throws IOException {
        this.node = node;
        this.name = name;
        this.root = root;
        Files.createDirectories(home());
        if (build == null) {
            PackagedMesh.trainAotCaches();
            this.app = PackagedMesh.copyApp(root);   // with the caches: the copy keeps the jars' mtimes
        } else {
            this.app = PackagedMesh.copyApp(build, root);   // no AOT caches: the launcher runs without them
        }
    }

    public Path state() {
        return root.resolve("state");
    }

    public Path config() {
        return root.resolve("etc");
    }

    public Path home() {
        return root.resolve("home");
    }

    /** The flags every seat install in the tests gives: this node, its engine, the test images, the folders. */
    public List<String> seatArgs() {
        return new ArrayList<>(List.of("install", "--node", name, "--address", node.address(), "--engine", node.dockerHost(),
                "--state-dir", state().toString(), "--config-dir", config().toString(),
                "--store-image", "mesh-test/postgres:15", "--registry-image", "mesh-test/registry:2"));
    }

    /** Runs the packaged mesh inside the node's namespace with HOME pointed at the test's home; at most 5 minutes. */
    public PackagedMesh.Result mesh(List<String> args) throws IOException, InterruptedException {
        return mesh(args, Map.of());
    }

    public PackagedMesh.Result mesh(List<String> args, Map<String, String> env) throws IOException, InterruptedException {
        return meshFrom(app, args, env);
    }

    /** As {@link #mesh(List, Map)}, run from the app folder {@code from} (another build than the one installed here). */
    public PackagedMesh.Result meshFrom(Path from, List<String> args, Map<String, String> env) throws IOException, InterruptedException {
        File out = File.createTempFile("mesh-install", ".out");
        File err = File.createTempFile("mesh-install", ".err");
        try {
            ProcessBuilder b = new ProcessBuilder(PackagedMesh.command(from, node.name(), args)).redirectOutput(out)
                    .redirectError(err).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
            b.environment().put("HOME", home().toString());
            b.environment().putAll(env);
            Process p = b.start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("mesh " + String.join(" ", args) + " did not finish in 5 minutes\n" + Files.readString(out.toPath()));
            }
            return new PackagedMesh.Result(args, p.exitValue(), Files.readString(out.toPath()), Files.readString(err.toPath()));
        } finally {
            Files.deleteIfExists(out.toPath());
            Files.deleteIfExists(err.toPath());
        }
    }

    /** Every process whose command line names this test's folder: the agent, the controllers, their shims. */
    public List<ProcessHandle> processes() {
        String mark = root.toString();
        return ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains(mark)).orElse(false)).toList();
    }

    @Override
    public void close() throws IOException {
        for (ProcessHandle h : processes()) {
            h.destroyForcibly();
        }
        try (DockerClient docker = TestbedNodes.client(node)) {
            List<Container> mine = docker.listContainersCmd().withShowAll(true)
                    .withLabelFilter(Map.of("mesh.node", name)).exec();
            for (Container c : mine) {
                docker.removeContainerCmd(c.getId()).withForce(true).exec();
            }
            for (String v : List.of("mesh-store_data", "mesh-registry_data", "smoke_data")) {
                try {
                    docker.removeVolumeCmd(v).exec();
                } catch (RuntimeException e) {
                    // absent: nothing to remove
                }
            }
        }
        PackagedMesh.deleteTree(root);
    }
}
