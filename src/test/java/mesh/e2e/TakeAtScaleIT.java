package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * TakeAtScaleIT takes a module with 2 GB of data on a mesh raised by {@code mesh install} and
 * {@code --join} ({@link InstalledMesh}: HTTPS, agents at their installed 64 MB heap), as operators
 * would: a volume of 2 GB (one file of 1,900 MB and 5,000 of 1–64 KB, ~160 MB) arrives byte-identical
 * (manifests equal, and the large file's sha256 as this test wrote it) while both agents' RSS, sampled
 * every 0.5 s, stays under 200 MB. Then three
 * stalls in the middle of a copy: a take n2 → n3 with the target's agent SIGSTOPped, the same with the traffic
 * between source and target dropped in the target's namespace (the controller still reaches both), and a take
 * n2 → n1 ({@code --stop-and-copy}) with the seat's own agent SIGSTOPped. Each take fails within 60 s of the stall naming the copy, the
 * module answers on the source again and {@code mesh take} ends rolled back within 90 s while the stall lasts,
 * the source's data is unchanged, and once the target goes on its partial copy is deleted and nothing of the
 * module runs there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class TakeAtScaleIT {

    static final String MODULE = "big";
    static final String COMPONENT = "big.app";
    static final int LARGE_MB = Integer.getInteger("mesh.take.large-mb", 1900);
    static final int SMALL_FILES = 5_000;
    static final long RSS_LIMIT = 200L * 1024 * 1024;

    InstalledMesh mesh;
    String largeSha;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(3);
        Path dir = Files.createTempDirectory("mesh-take-scale");
        Files.writeString(dir.resolve("big.yaml"), """
                module: big
                components:
                  big.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "mkdir -p /www && echo big > /www/index.html && exec httpd -f -p 8080 -h /www"]
                    volumes: {data: /data}
                    ports: [8080]
                    stop-timeout: 1s
                """);
        mesh.ok("catalogue", "add", dir.resolve("big.yaml").toString());
        mesh.ok("assign", "n1", MODULE);
        mesh.ok("push", "--wait");
        PackagedMesh.deleteTree(dir);
        PackagedMesh.await("big answers on n1", Duration.ofSeconds(60), () -> answers("n1"));
        largeSha = fill(volume("n1"));
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            for (String n : mesh.names()) {
                unblock(n);
                cont(n);
            }
            mesh.close();
        }
    }

    @Test
    @Order(1)
    void twoGigabytesMoveByteIdenticalWhileBothAgentsStayUnder200Mb() throws Exception {
        String before = digest("n1");
        Map<String, Long> peak = new ConcurrentHashMap<>();
        AtomicBoolean sampling = new AtomicBoolean(true);
        long n1 = mesh.agentPid("n1");
        long n2 = mesh.agentPid("n2");
        Thread sampler = Thread.ofVirtual().start(() -> {
            while (sampling.get()) {
                peak.merge("n1", rss(n1), Math::max);
                peak.merge("n2", rss(n2), Math::max);
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        long started = System.nanoTime();
        PackagedMesh.Result take;
        try {
            take = take("n2");
        } finally {
            sampling.set(false);
            sampler.join();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertEquals(0, take.exit(), take.toString());
        System.err.printf("take of %d MB + %d files: %.1f s; peak RSS n1 %d MiB, n2 %d MiB%n", LARGE_MB, SMALL_FILES, seconds,
                peak.get("n1") >> 20, peak.get("n2") >> 20);
        assertEquals(before, digest("n2"), "the target's manifest differs from the source's");
        assertEquals(largeSha, sha256(volume("n2").resolve("large.bin")), "large.bin differs on the target");
        assertEquals(SMALL_FILES, countSmall(volume("n2")));
        assertTrue(peak.get("n1") < RSS_LIMIT, "the source agent's RSS peaked at " + (peak.get("n1") >> 20) + " MiB");
        assertTrue(peak.get("n2") < RSS_LIMIT, "the target agent's RSS peaked at " + (peak.get("n2") >> 20) + " MiB");
        PackagedMesh.await("big answers on n2", Duration.ofSeconds(60), () -> answers("n2"));
    }

    @Test
    @Order(2)
    void aTargetAgentStoppedMidCopyFailsTheTakeAndTheModuleRunsOnTheSourceAgain() throws Exception {
        stall("n3", () -> signal(mesh.agentPid("n3"), "STOP"), () -> signal(mesh.agentPid("n3"), "CONT"), "the target agent stopped");
    }

    @Test
    @Order(3)
    void trafficDroppedBetweenSourceAndTargetFailsTheTakeAndTheModuleRunsOnTheSourceAgain() throws Exception {
        stall("n3", () -> block("n3", mesh.testbed("n2").address()), () -> unblock("n3"), "the link between n2 and n3 dropped");
    }

    /**
     * The seat's own agent stopped in the middle of a stop-and-copy take (the module fenced, not running while it
     * copies): the controller, its child, still runs and ends the take all the same, the module running on n2 again.
     */
    @Test
    @Order(4)
    void theSeatsAgentStoppedMidStopAndCopyFailsTheTakeAndTheModuleRunsOnTheSourceAgain() throws Exception {
        stall("n1", () -> signal(mesh.agentPid("n1"), "STOP"), () -> signal(mesh.agentPid("n1"), "CONT"), "the seat's agent stopped",
                "--stop-and-copy");
    }

    /**
     * Takes big n2 → {@code target}, sets off {@code stall} once the copy is under way, and checks the take fails
     * naming the copy within 60 s, big answers on n2 within 90 s with its data unchanged, and {@code mesh take} ends
     * (rolled back, exit 1) within 90 s while the stall lasts: a target that does not answer is not waited for (its
     * partial copy is recorded as left). Then {@code resume}s and checks the target's copy is deleted within 60 s
     * and big never runs there.
     */
    void stall(String target, Step stall, Step resume, String what, String... options) throws Exception {
        String before = digest("n2");
        File out = File.createTempFile("mesh-take", ".out");
        Process cli = startTake(target, out, options);
        try {
            PackagedMesh.await("the copy to " + target + " is under way (100 MB)", Duration.ofSeconds(120),
                    () -> copied() > 100L << 20);
            stall.run();
            long stalled = System.nanoTime();
            PackagedMesh.await("the take fails naming the copy after " + what, Duration.ofSeconds(60), () -> {
                JsonNode t = takeView();
                return t != null && t.path("error").asText("").contains("copy");
            });
            System.err.printf("%s: the take failed %.1f s after the stall: %s%n", what, (System.nanoTime() - stalled) / 1e9,
                    takeView().path("error").asText());
            long left = Duration.ofSeconds(90).toNanos() - (System.nanoTime() - stalled);
            PackagedMesh.await("big answers on n2 again after " + what, Duration.ofNanos(Math.max(left, 1)), () -> answers("n2"));
            System.err.printf("%s: big answered on n2 %.1f s after the stall%n", what, (System.nanoTime() - stalled) / 1e9);
            left = Duration.ofSeconds(90).toNanos() - (System.nanoTime() - stalled);
            assertTrue(cli.waitFor(Math.max(left, 1), TimeUnit.NANOSECONDS), "mesh take did not end within 90 s of " + what
                    + " while it lasted: " + Files.readString(out.toPath()));
            System.err.printf("%s: mesh take ended %.1f s after the stall: %s%n", what, (System.nanoTime() - stalled) / 1e9,
                    takeView().path("problem").asText());
            assertEquals("rolled-back", takeView().path("state").asText(), takeView().toString());
            assertEquals(before, digest("n2"), "the source's data changed");
        } finally {
            resume.run();
        }
        String said = Files.readString(out.toPath());
        Files.delete(out.toPath());
        assertEquals(1, cli.exitValue(), said);
        assertTrue(said.contains("copy"), said);
        // the target goes on: its partial copy is deleted, never started, and big runs once, on n2
        PackagedMesh.await("the partial copy on " + target + " is deleted after " + what, Duration.ofSeconds(60),
                () -> !hasVolume(target));
        for (int i = 0; i < 20; i++) {
            assertFalse(runs(target), "big runs on " + target + " after " + what);
            assertTrue(runs("n2"), "big does not run on n2 after " + what);
            Thread.sleep(500);
        }
        assertEquals("n2", roster(MODULE + ".internal"), "big.internal moved although the take failed");
    }

    interface Step {
        void run() throws Exception;
    }

    // ---- what the test reads and does

    /** {@code mesh take TO big}, allowed 10 minutes (2 GB on two loaded cores). */
    PackagedMesh.Result take(String to) throws Exception {
        File out = File.createTempFile("mesh-take", ".out");
        Process cli = startTake(to, out);
        try {
            assertTrue(cli.waitFor(10, TimeUnit.MINUTES), "mesh take " + to + " did not end in 10 minutes");
            return new PackagedMesh.Result(List.of("take", to, MODULE), cli.exitValue(), Files.readString(out.toPath()), "");
        } finally {
            cli.destroyForcibly();
            Files.deleteIfExists(out.toPath());
        }
    }

    /** Starts {@code mesh take TO big} in the background, its output (both streams) into {@code file}. */
    Process startTake(String to, File file, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("take", to, MODULE));
        args.addAll(List.of(options));
        ProcessBuilder b = new ProcessBuilder(PackagedMesh.command(PackagedMesh.app(), null, args))
                .redirectErrorStream(true).redirectOutput(file).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(mesh.cliEnv());
        return b.start();
    }

    JsonNode takeView() {
        try {
            return mesh.controller("/v1/mesh/takes/" + MODULE);
        } catch (Exception e) {
            return null;
        }
    }

    long copied() {
        JsonNode t = takeView();
        return t == null ? 0 : t.path("copy").path("bytes").asLong(0);
    }

    String roster(String name) {
        try {
            for (JsonNode e : mesh.json("roster")) {
                if (e.get("name").asText().equals(name)) {
                    return e.get("node").asText();
                }
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return null;
    }

    /** The manifest digest of big's data volume on the node, as its agent makes it. */
    String digest(String node) throws Exception {
        return mesh.agent(node, "/v1/volumes/" + MODULE + "/data/manifest?kind=container", Duration.ofMinutes(5))
                .get("digest").asText();
    }

    Path volume(String node) {
        return Path.of(mesh.engine(node).inspectVolumeCmd(MODULE + "_data").exec().getMountpoint());
    }

    /** Whether the node's engine has big's data volume (a take's copy there, or an old copy). */
    boolean hasVolume(String node) {
        var volumes = mesh.engine(node).listVolumesCmd().exec().getVolumes();
        return volumes != null && volumes.stream().anyMatch(v -> v.getName().equals(MODULE + "_data"));
    }

    boolean runs(String node) {
        return mesh.engine(node).listContainersCmd().exec().stream()
                .anyMatch(c -> c.getNames()[0].equals("/" + COMPONENT) && "running".equals(c.getState()));
    }

    /** Whether big's httpd answers on the node's address. */
    boolean answers(String node) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(mesh.testbed(node).address(), 8080), 2000);
            s.setSoTimeout(2000);
            s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).contains("big");
        } catch (IOException e) {
            return false;
        }
    }

    static long rss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException e) {
            // the process is gone: nothing to sample
        }
        return 0;
    }

    static void signal(long pid, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal + " " + pid);
    }

    void cont(String node) {
        try {
            signal(mesh.agentPid(node), "CONT");
        } catch (Exception | AssertionError e) {
            // not stopped, or gone
        }
    }

    /** Drops every packet between the node and {@code peer}, in the node's own namespace (iptables). */
    void block(String node, String peer) throws Exception {
        iptables(node, "-I", "INPUT", "-s", peer, "-j", "DROP");
        iptables(node, "-I", "OUTPUT", "-d", peer, "-j", "DROP");
    }

    void unblock(String node) {
        for (String peer : mesh.names().stream().map(n -> mesh.testbed(n).address()).toList()) {
            for (String[] rule : List.of(new String[] {"INPUT", "-s"}, new String[] {"OUTPUT", "-d"})) {
                try {
                    while (iptables(node, "-D", rule[0], rule[1], peer, "-j", "DROP") == 0) {
                        // every copy of the rule
                    }
                } catch (Exception e) {
                    // nothing to remove
                }
            }
        }
    }

    int iptables(String node, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + mesh.testbed(node).name(), "iptables"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor();
    }

    /**
     * Fills a volume: {@code large.bin} of {@link #LARGE_MB} MB (each MiB different) and {@link #SMALL_FILES}
     * files of 1–64 KB in 50 folders, plus a link; returns the large file's sha256.
     */
    static String fill(Path root) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] block = new byte[1 << 20];
        new java.util.Random(20).nextBytes(block);
        try (OutputStream out = Files.newOutputStream(root.resolve("large.bin"))) {
            for (int mb = 0; mb < LARGE_MB; mb++) {
                block[0] = (byte) mb;
                block[1] = (byte) (mb >> 8);
                out.write(block);
                sha.update(block);
            }
        }
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < SMALL_FILES; i++) {
            Path dir = Files.createDirectories(root.resolve("small/d" + (i % 50)));
            byte[] content = new byte[1024 + random.nextInt(63 * 1024)];
            random.nextBytes(content);
            Files.write(dir.resolve("f" + i + ".bin"), content);
        }
        Files.createSymbolicLink(root.resolve("small/latest"), Path.of("d0/f0.bin"));
        return HexFormat.of().formatHex(sha.digest());
    }

    static long countSmall(Path root) throws IOException {
        try (var files = Files.walk(root.resolve("small"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".bin") && Files.isRegularFile(f)).count();
        }
    }

    static String sha256(Path file) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (var in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 20];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
