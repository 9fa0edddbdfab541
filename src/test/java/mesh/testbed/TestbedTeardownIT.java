package mesh.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Teardown leaves nothing behind. {@code scripts/testbed selftest} raises three nodes of its own
 * (st1..st3 at 10.77.0.201-203, so the n* nodes other ITs use are not disturbed), checks them, tears
 * them down (one engine crashed first, with containers running) and checks that no namespace, veth,
 * engine process, container process or mount is left. This test runs it and then looks again itself.
 */
class TestbedTeardownIT {

    static final List<String> SELFTEST_NODES = List.of("st1", "st2", "st3");

    @Test
    void selftestTearsDownItsNodesCompletely() throws IOException, InterruptedException {
        var run = TestbedNodes.run(Duration.ofMinutes(5), "selftest");
        String out = run.stdout();

        assertEquals(0, run.exitCode(), "selftest exit code\n" + out + run.stderr());
        assertTrue(out.contains("selftest: PASSED"), out);
        assertFalse(out.contains("selftest: FAIL"), out);
        for (String node : SELFTEST_NODES) {
            for (String check : List.of(
                    "selftest: ok: " + node + ": engine answers on unix:///run/mesh-" + node + "/docker.sock",
                    "selftest: ok: " + node + ": no namespace left (ip netns list)",
                    "selftest: ok: " + node + ": no veth-" + node + " link left",
                    "selftest: ok: " + node + ": no engine process left",
                    "selftest: ok: " + node + ": no process using /run/mesh-" + node + " left",
                    "selftest: ok: " + node + ": no mount under /run/mesh-" + node + " or /var/lib/mesh-" + node + " left")) {
                assertTrue(out.contains(check + "\n"), "missing check line '" + check + "' in\n" + out);
            }
        }
        assertTrue(out.contains("selftest: ok: st3's engine crashed (SIGKILL); its containers live on"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("selftest: ok: no container process of st2/st3 left")), out);

        // Look again, independently of the script.
        String netns = command("ip", "netns", "list");
        for (String node : SELFTEST_NODES) {
            assertFalse(netns.lines().anyMatch(l -> l.equals(node) || l.startsWith(node + " ")),
                    node + " namespace left:\n" + netns);
            assertFalse(command("ip", "-o", "link", "show").contains("veth-" + node + "@"), "veth-" + node + " left");
            assertEquals(List.of(), processesMentioning("/run/mesh-" + node + "/"), "processes of " + node + " left");
            assertFalse(Files.exists(Path.of("/run/mesh-" + node)), "/run/mesh-" + node + " left");
        }
        assertFalse(TestbedNodes.list().stream().anyMatch(n -> SELFTEST_NODES.contains(n.name())),
                "nodes list still shows a selftest node");
        if (TestbedNodes.list().isEmpty()) {
            assertFalse(command("ip", "-o", "link", "show").contains(" br-mesh:"), "br-mesh left with no node up");
        }
    }

    static String command(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", command) + " failed: " + out);
        return out;
    }

    /** PIDs whose command line contains the text (read from /proc, like the script's own check). */
    static List<String> processesMentioning(String text) throws IOException {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .filter(p -> {
                        try {
                            byte[] raw = Files.readAllBytes(p.resolve("cmdline"));
                            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').contains(text);
                        } catch (IOException gone) {
                            return false;
                        }
                    })
                    .map(p -> p.getFileName().toString())
                    .toList();
        }
    }
}
