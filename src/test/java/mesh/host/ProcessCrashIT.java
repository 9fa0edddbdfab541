package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.SpecDigest;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.Test;

/**
 * ProcessCrashIT is {@link AgentCrashIT} for processes: the packaged agent is SIGKILLed ten times, at random
 * moments of an apply that replaces everything (two processes and two containers, a new VERSION each round),
 * and started again on the same state dir. After each restart exactly one copy of each process runs (counted
 * from /proc by the shim's command line) at the digest of the newest declaration, its volume's data is intact,
 * and a decoy process whose pid was written into one process's record is never signalled.
 */
class ProcessCrashIT {

    static final int ROUNDS = 10;
    static final int PORT_A = PackagedMesh.freePort();
    static final int PORT_B = PackagedMesh.freePort();

    @Test
    void exactlyOneCopyOfEachProcessAfterSigkillAtAnyMomentOfAReplace() throws Exception {
        Random random = new Random(Long.getLong("mesh.crash.seed", System.nanoTime()));
        Process decoy = new ProcessBuilder("sleep", "600").start();
        List<String> report = new ArrayList<>();
        try (ProcessBed bed = new ProcessBed("process-crash")) {
            String bundle = bed.pushBundle("it/crash:1", 0);
            String a = bed.node + ".a";
            String b = bed.node + ".b";
            bed.startAgent();
            List<ComponentSpec> components = components(bed, bundle, "r0");
            assertEquals(201, bed.agent.put(bed.declaration(components)).status());
            bed.agent.awaitConverged(bed.generation, Duration.ofSeconds(60));
            Path markerFile = bed.stateDir.resolve("volumes").resolve(bed.node + "_data").resolve("marker");
            String marker = Files.readString(markerFile);

            for (int round = 1; round <= ROUNDS; round++) {
                components = components(bed, bundle, "r" + round);
                long delay = random.nextInt(1500);
                AgentProcess.Answer put = bed.agent.put(bed.declaration(components));
                assertEquals(201, put.status(), put.body());
                Thread.sleep(delay);
                bed.agent.kill();
                report.add("round " + round + ": killed " + delay + " ms after the push; shims a=" + ProcessBed.shims(a)
                        + " b=" + ProcessBed.shims(b));
                if (round == ROUNDS / 2) {
                    writeDecoyInto(bed.stateDir.resolve("processes").resolve(a + ".json"), decoy.pid());
                }
                bed.startAgent();
                assertEquals(201, bed.agent.put(bed.declaration(components)).status());
                JsonNode status = bed.agent.awaitConverged(bed.generation, Duration.ofSeconds(60));
                for (ComponentSpec c : components.subList(0, 2)) {
                    String want = SpecDigest.of(ContainerRequest.of(c, ProcessBed.ADDRESS));
                    List<Long> shims = ProcessBed.shims(c.name());
                    assertEquals(1, shims.size(), "round " + round + ": copies of " + c.name() + ": " + shims + "\n" + report);
                    assertEquals(want, ProcessBed.shimDigest(shims.get(0)), "round " + round + ": " + c.name() + " runs the new spec");
                    assertEquals(shims.get(0), ProcessComponentIT.component(status, c.name()).path("process").path("pid").asLong());
                }
                assertEquals("r" + round + "\n", bed.get(PORT_A, "/version.txt"));
                assertEquals("r" + round + "\n", bed.get(PORT_B, "/version.txt"));
                assertEquals(marker, Files.readString(markerFile), "round " + round + ": the volume's data is intact");
                assertEquals(marker, bed.get(PORT_A, "/marker.txt"));
                assertEquals(2, bed.containers().size(), "round " + round + ": containers " + bed.containers().size());
                assertTrue(decoy.isAlive(), "round " + round + ": the decoy was signalled");
            }
            assertTrue(decoy.isAlive(), "the decoy whose pid was in the records is alive at the end");
        } finally {
            decoy.destroyForcibly();
            Path out = Path.of("target", "process-crash-rounds.txt");
            Files.createDirectories(out.getParent());
            Files.write(out, report);
        }
    }

    static List<ComponentSpec> components(ProcessBed bed, String bundle, String version) {
        return List.of(
                bed.process(bed.node + ".a", bundle, PORT_A, Map.of("b.internal", "10.77.0.12"), version),
                bed.process(bed.node + ".b", bundle, PORT_B, Map.of(), version),
                bed.container(bed.node + ".c", version, List.of(bed.node + ".a")),
                bed.container(bed.node + ".d", version, List.of(bed.node + ".b")));
    }

    /** Writes the decoy's pid into the record, as a stale record would hold a pid the kernel handed out again. */
    static void writeDecoyInto(Path record, long pid) throws Exception {
        ObjectNode json = (ObjectNode) AgentProcess.JSON.readTree(Files.readString(record));
        json.put("pid", pid);
        Files.writeString(record, AgentProcess.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json));
    }
}
