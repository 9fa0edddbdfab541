package mesh.install;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * InstallInputIT runs the packaged {@code mesh install} with one bad input at a time, against the
 * machine's own engine (which answers, so only the input can be wrong), with the state dir, the
 * config dir and HOME in a temp folder. Each run must exit 1 naming the flag and the value, show
 * nothing of Java, and leave everything as it was: the folders empty, no container labelled mesh
 * created. No test-bed node is needed; the cases of {@code --module-networks} overlapping the
 * machine's own networks count on the test bed's bridge (10.77.0.1/24 in this namespace, {@code
 * scripts/testbed up}), which the install reads as this machine's address.
 */
class InstallInputIT {

    static final String ENGINE = "unix:///var/run/docker.sock";
    static final String HASH = "sha256:" + "ab".repeat(32);
    static final List<String> FORBIDDEN = List.of("java.", "Exception", "internal error", "\tat ", "<local");

    Path root;

    /** Bad is one bad input: the arguments it adds and what the refusal must name. */
    record Bad(String name, List<String> args, List<String> names) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Bad bad(String name, List<String> args, String... names) {
        return new Bad(name, args, List.of(names));
    }

    static Stream<Bad> badInputs() {
        List<String> join = List.of("--join", "https://10.77.0.99:7700", "--token", "t0k3n", "--ca-hash", HASH);
        return Stream.of(
                bad("a node name that is no DNS label", List.of("--node", "Bad_Node"), "--node", "'Bad_Node'"),
                bad("a loopback address", List.of("--address", "127.0.0.1"), "--address", "127.0.0.1", "loopback"),
                bad("a store URL that is not JDBC", List.of("--store-url", "postgres://mesh:mesh@10.77.0.1/mesh"),
                        "--store-url", "'postgres://mesh:mesh@10.77.0.1/mesh'", "JDBC"),
                bad("a join that is not a URL", List.of("--join", "https//10.0.0.11:7700", "--token", "t0k3n", "--ca-hash", HASH),
                        "--join", "'https//10.0.0.11:7700'"),
                bad("an https join without --ca-hash", List.of("--join", "https://10.0.0.11:7700", "--token", "t0k3n"),
                        "--ca-hash"),
                bad("a public domain in capitals", List.of("--public-domain", "Zurag.BE"), "--public-domain", "'Zurag.BE'"),
                bad("a joining node's public domain", Stream.concat(join.stream(), Stream.of("--public-domain", "zurag.be"))
                        .toList(), "--public-domain", "mesh node public-domain"),
                bad("an engine given as a bare path", List.of("--engine", "docker.sock"), "--engine", "'docker.sock'",
                        "unix:///", "tcp://host:port"),
                bad("module networks that are no CIDR", List.of("--module-networks", "10.213.0.0"), "--module-networks",
                        "'10.213.0.0'", "like 10.213.0.0/16"),
                // the machine's own address on the test bed's bridge is 10.77.0.1/24 (what --address gives here)
                bad("module networks overlapping the machine's address", List.of("--module-networks", "10.77.0.0/16"),
                        "--module-networks 10.77.0.0/16 overlaps this node's address 10.77.0.1/24"),
                bad("a joining node's module networks overlapping its address", Stream.concat(join.stream(),
                        Stream.of("--module-networks", "10.77.0.0/16")).toList(),
                        "--module-networks 10.77.0.0/16 overlaps this node's address 10.77.0.1/24"));
    }

    @BeforeEach
    void folders() throws IOException {
        root = Files.createTempDirectory("mesh-install-input");
        for (String dir : List.of("state", "config", "home")) {
            Files.createDirectories(root.resolve(dir));
        }
    }

    @AfterEach
    void clean() throws IOException {
        PackagedMesh.deleteTree(root);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void eachBadInputIsRefusedBeforeAnyStepNamingItsFlag(Bad c) throws Exception {
        List<String> before = meshContainers();
        // good values of every flag the case does not give (picocli takes each option once)
        Map<String, String> flags = new java.util.LinkedHashMap<>(Map.of("--node", "novox", "--address", "10.77.0.1",
                "--engine", ENGINE));
        for (int i = 0; i < c.args().size(); i += 2) {
            flags.put(c.args().get(i), c.args().get(i + 1));
        }
        List<String> args = new ArrayList<>(List.of("install", "--state-dir", root.resolve("state").toString(),
                "--config-dir", root.resolve("config").toString()));
        flags.forEach((flag, value) -> args.addAll(List.of(flag, value)));
        PackagedMesh.Result run = PackagedMesh.run(Map.of("HOME", root.resolve("home").toString()), args.toArray(String[]::new));
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertEquals(1, run.exit(), run.toString()));
        checks.add(() -> assertTrue(run.err().contains("install refused, nothing was changed"), run.toString()));
        checks.add(() -> assertFalse(run.out().contains("preflight"), "no step ran: " + run));
        for (String name : c.names()) {
            checks.add(() -> assertTrue(run.err().contains(name), "should name '" + name + "': " + run));
        }
        for (String word : FORBIDDEN) {
            checks.add(() -> assertFalse(run.out().contains(word) || run.err().contains(word), "shows '" + word + "': " + run));
        }
        for (String dir : List.of("state", "config", "home")) {
            checks.add(() -> assertEquals(List.of(), list(root.resolve(dir)), dir + " was written: " + run));
        }
        checks.add(() -> assertEquals(before, meshContainers(), "a container labelled mesh was made: " + run));
        assertAll(c.toString(), checks);
    }

    static List<String> list(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> !p.equals(dir)).map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }

    /** The root engine's containers that carry mesh's node label, as {@code docker ps -a} lists them. */
    static List<String> meshContainers() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("docker", "-H", ENGINE, "ps", "-aq", "--filter", "label=mesh.node")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "docker ps: " + out);
        return out.lines().sorted().toList();
    }
}
