package mesh.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import mesh.testbed.InstalledMesh;

/**
 * DrainBed is what {@link DrainIT} reads off the nodes of its mesh: where a module runs (a container by its name, a
 * process by its shims in the node's network namespace, as {@link TakeProcessIT} counts them), every container's
 * id on every node, a volume's folder and its sha256 tree, and a page through an edge; and what it writes: a
 * process module's bundle, the edge's catalogue entry, random bytes in a volume.
 */
final class DrainBed {

    static final List<String> NODES = List.of("n1", "n2", "n3", "n4");

    private final InstalledMesh mesh;

    DrainBed(InstalledMesh mesh) {
        this.mesh = mesh;
    }

    /** The nodes {@code module} runs on now; its component is a process when {@code process} is its name. */
    List<String> runningOn(String module, String process) {
        List<String> on = new ArrayList<>();
        for (String node : NODES) {
            try {
                if (process != null ? !shims(process, node).isEmpty() : mesh.engine(node).listContainersCmd().exec().stream()
                        .anyMatch(c -> c.getNames()[0].equals("/" + module + ".app") && "running".equals(c.getState()))) {
                    on.add(node);
                }
            } catch (RuntimeException | IOException e) {
                // an engine that did not answer this look says nothing
            }
        }
        return on;
    }

    /** The pids of the component's shims in the node's network namespace (a shim per running copy). */
    List<Long> shims(String component, String node) throws IOException {
        String netns = "net:[" + Files.getAttribute(Path.of("/run/netns", mesh.testbed(node).name()), "unix:ino") + "]";
        List<Long> pids = new ArrayList<>();
        for (long pid : TakeProcessIT.allShims(component)) {
            try {
                if (Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns/net")).toString().equals(netns)) {
                    pids.add(pid);
                }
            } catch (IOException gone) {
                // ended meanwhile
            }
        }
        return pids;
    }

    /** Every mesh container on every node, {@code node/name} to its id. */
    Map<String, String> containers() {
        Map<String, String> ids = new TreeMap<>();
        for (String node : NODES) {
            mesh.engine(node).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", node)).exec()
                    .forEach(c -> ids.put(node + "/" + c.getNames()[0].substring(1), c.getId()));
        }
        return ids;
    }

    /** The folder of the module's volume {@code data} on the node: the engine's, or the agent's for a process. */
    Path volume(String node, String module, boolean process) {
        return process ? mesh.node(node).state().resolve("host/volumes/" + module + "_data")
                : Path.of(mesh.engine(node).inspectVolumeCmd(module + "_data").exec().getMountpoint());
    }

    /** Each entry of the folder with its kind, mode, owner and, for a file, its sha256 ({@link TakeIT#tree}). */
    static Map<String, String> tree(Path root) throws Exception {
        return TakeIT.tree(root);
    }

    /** {@code mesh bundle push} of a script that serves a health page on $PORT; returns what it printed. */
    String bundle(Path dir, String name) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("bundle"));
        Files.writeString(folder.resolve("run"), String.join("\n", "#!/bin/sh", "mkdir -p www", "echo ok > www/health.txt",
                "exec /bin/busybox httpd -f -p \"$MESH_ADDRESS:$PORT\" -h www", ""));
        Files.setPosixFilePermissions(folder.resolve("run"), PosixFilePermissions.fromString("rwxr-xr-x"));
        var r = mesh.mesh("bundle", "push", folder.toString(), name, "--entrypoint", "run");
        if (r.exit() != 0) {
            throw new AssertionError("mesh bundle push: " + r);
        }
        return r.out().strip();
    }

    /** The edge's module (the shipped route-proxy.yaml) on the test bed's caddy image, with the edge's own CA. */
    void edge(Path dir) throws IOException {
        TestbedEdge.write(dir);
    }

    /** The page a client that verifies the edge's CA gets for {@code host} through {@code node}'s edge; "" when refused. */
    String page(Path ca, String node, String host) {
        try {
            Process p = new ProcessBuilder("curl", "-sS", "--max-time", "3", "--cacert", ca.toString(),
                    "--resolve", host + ":443:" + mesh.testbed(node).address(), "https://" + host + "/")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out.strip() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Ends, by pid, the process groups of the component's shims that are left (a crashed run's, or after the agents). */
    static void endShims(String component) throws IOException {
        for (long pid : TakeProcessIT.allShims(component)) {
            ProcessHandle.of(pid).ifPresent(h -> {
                h.descendants().forEach(ProcessHandle::destroyForcibly);
                h.destroyForcibly();
            });
        }
    }

    /**
     * Ends, by pid, the bundle's httpd on {@code port} in any node of this mesh: one a crashed run's agent left behind
     * (its shim gone) would hold the port on that node's address, and the process module could not start there.
     */
    void endProcesses(int port) throws IOException {
        List<String> binds = NODES.stream().map(n -> "httpd -f -p " + mesh.testbed(n).address() + ":" + port + " ").toList();
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    String argv = Files.readString(p.resolve("cmdline")).replace('\0', ' ');
                    if (binds.stream().anyMatch(argv::contains)) {
                        ProcessHandle.of(Long.parseLong(p.getFileName().toString())).ifPresent(ProcessHandle::destroyForcibly);
                    }
                } catch (IOException gone) {
                    // ended meanwhile
                }
            }
        }
    }

    /** Writes {@code mb} MB of random bytes (seeded) and a note into the folder. */
    static void fill(Path root, int mb, int seed) throws IOException {
        Random random = new Random(seed);
        byte[] block = new byte[1 << 20];
        for (int i = 0; i < mb; i++) {
            random.nextBytes(block);
            Files.write(root.resolve("f" + i + ".bin"), block);
        }
        Files.writeString(root.resolve("note.txt"), "module data " + seed);
    }
}
