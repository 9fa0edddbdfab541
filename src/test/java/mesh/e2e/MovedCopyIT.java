package mesh.e2e;

import static mesh.e2e.MeshE2EIT.quietly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.model.Container;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import mesh.model.Labels;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MovedCopyIT shows that no moved copy starts again (docs/backup.md, "A moved copy never starts again"), on an installed
 * mesh of three nodes ({@link InstalledMesh}: {@code mesh install}, {@code --join}, HTTPS). Node n2 runs {@code own2} and
 * six modules {@code nr1..nr6}, each a busybox httpd with a volume, publishing its port on n2's address. For each order
 * in which a dead node's parts can come back (its link, its engine, its agent: all six), one module is backed up, n2 dies
 * (agent SIGKILLed, engine killed with its containers, link cut), the module is restored on n3, and n2's parts come back in that order, 4 s
 * apart: for 60 s from the first, its port on n2 is asked every 0.2 s and n2's engine is looked at every 0.2 s; the old
 * copy must answer 0 times and no container of it be running at any look, and {@code own2} must run on n2 again. Last,
 * with the seat's link cut, n2 is restarted (engine, then agent): {@code own2} must answer again within 30 s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class MovedCopyIT {

    /** A part of a node that comes back. */
    enum Part { LINK, ENGINE, AGENT }

    static final int OWN_PORT = 8100;
    static final Duration PROBING = Duration.ofSeconds(60);
    static final Duration EVERY = Duration.ofMillis(200);
    static final Duration GAP = Duration.ofSeconds(4);
    static final Duration OWN_AGAIN = Duration.ofSeconds(30);

    InstalledMesh installed;
    Path catalogue;
    final AtomicInteger cases = new AtomicInteger();
    final List<String> figures = new ArrayList<>();

    static Stream<Arguments> orders() {
        return Stream.of(
                Arguments.of(List.of(Part.ENGINE, Part.AGENT, Part.LINK)),
                Arguments.of(List.of(Part.AGENT, Part.ENGINE, Part.LINK)),
                Arguments.of(List.of(Part.LINK, Part.ENGINE, Part.AGENT)),
                Arguments.of(List.of(Part.LINK, Part.AGENT, Part.ENGINE)),
                Arguments.of(List.of(Part.ENGINE, Part.LINK, Part.AGENT)),
                Arguments.of(List.of(Part.AGENT, Part.LINK, Part.ENGINE)));
    }

    @BeforeAll
    void raiseTheMesh() throws Exception {
        installed = InstalledMesh.raise(3);
        catalogue = Files.createTempDirectory("mesh-moved-copy");
        for (int i = 0; i <= 6; i++) {
            String module = i == 0 ? "own2" : "nr" + i;
            Files.writeString(catalogue.resolve(module + ".yaml"), """
                    module: %1$s
                    components:
                      %1$s.server:
                        image: mesh-test/busybox:1
                        args: [sh, -c, "echo %1$s > /data/index.html; exec httpd -f -p %2$d -h /data"]
                        volumes: {data: /data}
                        ports: [%2$d]
                        stop-timeout: 1s
                    """.formatted(module, OWN_PORT + i));
        }
        installed.ok("catalogue", "add", catalogue.toString());
        installed.ok("assign", "n2", "own2");
        for (int i = 1; i <= 6; i++) {
            installed.ok("assign", "n2", "nr" + i);
        }
        installed.ok("push", "--wait");
        for (int i = 0; i <= 6; i++) {
            int port = OWN_PORT + i;
            PackagedMesh.await("port " + port + " answers on n2", Duration.ofSeconds(60), () -> answers("n2", port));
        }
    }

    @AfterAll
    void tearDown() throws Exception {
        figures.forEach(f -> System.out.println("MovedCopyIT: " + f));
        if (installed != null) {
            for (String n : List.of("n1", "n2")) {
                String bed = installed.testbed(n).name();
                quietly(() -> {
                    TestbedNodes.link(bed, true);
                    return true;
                });
                quietly(() -> {
                    TestbedNodes.startEngine(bed);
                    return true;
                });
            }
            installed.close();
        }
        if (catalogue != null) {
            PackagedMesh.deleteTree(catalogue);
        }
    }

    /** Must-show 4: a module restored elsewhere while its node was down; the node back in this order; the old copy never runs. */
    @ParameterizedTest(name = "n2 back in the order {0}")
    @MethodSource("orders")
    @Order(1)
    void aModuleRestoredElsewhereWhileItsNodeWasDownNeverRunsThereAgain(List<Part> order) throws Exception {
        int index = cases.incrementAndGet();
        String module = "nr" + index;
        int port = OWN_PORT + index;
        String bed = installed.testbed("n2").name();
        installed.ok("backup", module, "--wait");

        installed.killAgent("n2");
        TestbedNodes.killEngine(bed);   // a machine's death: engine, containerd, shims and containers SIGKILLed
        TestbedNodes.link(bed, false);
        String restored = installed.ok("restore", module, "--to", "n3", "--down", "n2");
        assertTrue(restored.contains("step lose"), "n2 was down: its copy is lost, not fenced\n" + restored);
        PackagedMesh.await(module + " answers on n3", Duration.ofSeconds(60), () -> answers("n3", port));

        long began = System.nanoTime();
        CompletableFuture<String> comeBack = CompletableFuture.supplyAsync(() -> comeBack(bed, order, began), PackagedMesh.OWN_THREAD);
        Probes probes = probe(module, port, began);
        String steps = comeBack.get();
        long ownAt = orWait(probes.ownAt.get(), () -> awaitAnswer("n2", OWN_PORT, System.nanoTime(), Duration.ofSeconds(60)));
        String line = String.format("order %s (%s): %d probes of %s on n2, %d answered; %d looks at n2's engine (%d while it "
                + "answered), %d saw a container of %s running; own2 answered again %.1f s after the first part came back",
                order, steps, probes.asked.get(), module, probes.answered.get(), probes.looks, probes.looked, probes.running,
                module, (ownAt - began) / 1e9);
        figures.add(line);
        System.out.println("MovedCopyIT: " + line);
        assertEquals(PROBING.toMillis() / EVERY.toMillis(), probes.asked.get(), "probed every 0.2 s for 60 s: " + line);
        assertTrue(probes.looked > 0, "n2's engine was looked at while it answered: " + line);
        assertEquals(0, probes.answered.get(), "the old copy never answers: " + line);
        assertEquals(0, probes.running, "no container of the old copy runs at any look: " + line);
        assertTrue(answers("n3", port), module + " still runs where it was restored");
        PackagedMesh.await("the controller fenced the lost copy of " + module + " on n2", Duration.ofSeconds(30), () -> quietly(() ->
                installed.json("audit").toString().contains("module " + module + ": its lost copy on n2 fenced")));
    }

    /** Must-show 4, last part: a node restarted while the seat is down runs its own modules again within 30 s. */
    @Test
    @Order(2)
    void aNodeRestartedWhileTheSeatIsDownRunsItsOwnModulesAgain() throws Exception {
        String seat = installed.testbed("n1").name();
        String bed = installed.testbed("n2").name();
        TestbedNodes.link(seat, false);
        try {
            installed.killAgent("n2");
            TestbedNodes.stopEngine(bed);
            assertTrue(!answers("n2", OWN_PORT), "own2 is down with its node");
            long engine = System.nanoTime();
            TestbedNodes.startEngine(bed);
            long agent = System.nanoTime();
            installed.launchAgent("n2", Map.of());
            long ownAt = awaitAnswer("n2", OWN_PORT, agent, Duration.ofSeconds(90));
            String line = String.format("the seat cut off, n2 restarted: own2 answered %.1f s after n2's agent was started (%.1f s"
                    + " after its engine was)", (ownAt - agent) / 1e9, (ownAt - engine) / 1e9);
            figures.add(line);
            System.out.println("MovedCopyIT: " + line);
            assertTrue(ownAt - agent <= OWN_AGAIN.toNanos(), line);
            for (int i = 1; i <= 6; i++) {
                assertTrue(!answers("n2", OWN_PORT + i), "nr" + i + "'s old copy stays fenced on n2");
            }
        } finally {
            TestbedNodes.link(seat, true);
        }
        installed.awaitController(Duration.ofSeconds(60));
    }

    /** Brings n2's parts back in {@code order}, {@link #GAP} apart; says when each came (seconds after {@code began}). */
    String comeBack(String bed, List<Part> order, long began) {
        List<String> said = new ArrayList<>();
        try {
            for (Part p : order) {
                switch (p) {
                    case LINK -> TestbedNodes.link(bed, true);
                    case ENGINE -> TestbedNodes.startEngine(bed);
                    case AGENT -> installed.launchAgent("n2", Map.of());
                }
                said.add(String.format("%s at %.1f s", p.name().toLowerCase(), (System.nanoTime() - began) / 1e9));
                Thread.sleep(GAP.toMillis());
            }
        } catch (Exception e) {
            throw new IllegalStateException("bringing n2 back: " + e.getMessage(), e);
        }
        return String.join(", ", said);
    }

    /** What the probes of one case counted, and when own2 first answered (System.nanoTime; 0: not within the probes). */
    static final class Probes {
        final AtomicInteger asked = new AtomicInteger();
        final AtomicInteger answered = new AtomicInteger();
        volatile int looks;
        volatile int looked;
        volatile int running;
        final java.util.concurrent.atomic.AtomicLong ownAt = new java.util.concurrent.atomic.AtomicLong();
    }

    /**
     * For {@link #PROBING} from {@code began}: asks the module's port on n2 every {@link #EVERY} (each probe in a thread of
     * its own, so a probe that waits for its timeout never delays the next), and own2's; beside them looks at n2's
     * engine every {@link #EVERY} for a container of the module in the running state.
     */
    Probes probe(String module, int port, long began) throws Exception {
        Probes p = new Probes();
        long end = began + PROBING.toNanos();
        Thread looker = Thread.ofVirtual().start(() -> {
            while (System.nanoTime() < end) {
                p.looks++;
                try {
                    List<Container> of = installed.engine("n2").listContainersCmd().withShowAll(true)
                            .withLabelFilter(Map.of(Labels.MODULE, module)).exec();
                    p.looked++;
                    if (of.stream().anyMatch(c -> "running".equals(c.getState()) || "restarting".equals(c.getState()))) {
                        p.running++;
                    }
                } catch (RuntimeException engineDown) {
                    // no engine: nothing of it can run
                }
                sleep(EVERY);
            }
        });
        List<Thread> probes = new ArrayList<>();
        for (long next = began; next < end; next += EVERY.toNanos()) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            probes.add(Thread.ofVirtual().start(() -> {
                p.asked.incrementAndGet();
                if (answers("n2", port)) {
                    p.answered.incrementAndGet();
                }
                if (p.ownAt.get() == 0 && answers("n2", OWN_PORT)) {
                    p.ownAt.compareAndSet(0, System.nanoTime());
                }
            }));
        }
        for (Thread t : probes) {
            t.join();
        }
        looker.join();
        return p;
    }

    interface Wait {
        long get() throws InterruptedException;
    }

    /** {@code seen} when not 0, else what {@code wait} returns. */
    static long orWait(long seen, Wait wait) throws InterruptedException {
        return seen != 0 ? seen : wait.get();
    }

    /** Waits until the port answers on the node; returns when (System.nanoTime). */
    long awaitAnswer(String node, int port, long began, Duration limit) throws InterruptedException {
        while (System.nanoTime() - began < limit.toNanos()) {
            if (answers(node, port)) {
                return System.nanoTime();
            }
            sleep(EVERY);
        }
        throw new AssertionError("port " + port + " did not answer on " + node + " within " + limit);
    }

    /** Whether an HTTP server answers on the node's address and port (a GET, 300 ms to connect and to answer). */
    boolean answers(String node, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(installed.testbed(node).address(), port), 300);
            s.setSoTimeout(300);
            OutputStream out = s.getOutputStream();
            out.write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readNBytes(5), StandardCharsets.US_ASCII).equals("HTTP/");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
