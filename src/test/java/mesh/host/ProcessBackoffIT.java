package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mesh.model.ComponentSpec;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.Test;

/**
 * ProcessBackoffIT: a process that exits 1 is restarted by the agent's passes after a backoff that doubles
 * (the start times it writes into its log grow apart), the agent's status gives its last exit status and
 * restarts, and {@code mesh host logs} shows its output.
 */
class ProcessBackoffIT {

    static final String CRASHING = "#!/bin/sh\necho \"start at $(date +%s%N)\"\necho 'giving up' >&2\nexit 1\n";

    @Test
    void aProcessThatExitsOneIsRestartedWithBackoffAndItsExitAndOutputAreShown() throws Exception {
        try (ProcessBed bed = new ProcessBed("process-backoff")) {
            String bundle = bed.pushScript("it/crashing:1", CRASHING, 0);
            String name = bed.node + ".crash";
            bed.startAgent();
            ComponentSpec crash = new ComponentSpec(bed.node, name, null, bundle, List.of(), Map.of(), Map.of(), List.of(),
                    Map.of(), null, List.of(), 2, null);
            assertEquals(201, bed.agent.put(bed.declaration(List.of(crash))).status());
            PackagedMesh.await("four starts in the log", Duration.ofSeconds(40), () -> starts(bed).size() >= 4);
            List<Long> starts = starts(bed);
            long first = starts.get(1) - starts.get(0);
            long third = starts.get(3) - starts.get(2);
            assertTrue(first >= 700_000_000L, "restarted after about 1 s, not at once: " + first + " ns");
            assertTrue(third > first + 1_000_000_000L, "the backoff doubles (1 s, 2 s, 4 s): gaps " + first + " then " + third);

            JsonNode c = ProcessComponentIT.component(bed.agent.get("/v1/status").json(), name);
            JsonNode p = c.path("process");
            assertEquals("exit 1", p.path("lastExit").asText(), c.toString());
            assertTrue(p.path("restarts").asInt() >= 2, c.toString());
            assertTrue(List.of("restarting", "running").contains(p.path("state").asText()), c.toString());

            PackagedMesh.Result logs = PackagedMesh.run(Map.of("MESH_HOST_STATE_DIR", bed.stateDir.toString()),
                    "host", "logs", name, "-n", "4");
            assertEquals(0, logs.exit(), logs.toString());
            assertTrue(logs.out().contains("start at ") && logs.out().contains("giving up"), logs.toString());
            PackagedMesh.Result none = PackagedMesh.run(Map.of("MESH_HOST_STATE_DIR", bed.stateDir.toString()),
                    "host", "logs", "no.such");
            assertEquals(1, none.exit(), none.toString());
            assertTrue(none.err().contains("no log of component no.such"), none.toString());
        }
    }

    static List<Long> starts(ProcessBed bed) {
        try {
            return java.nio.file.Files.readAllLines(bed.stateDir.resolve("logs").resolve(bed.node + ".crash.log")).stream()
                    .filter(l -> l.startsWith("start at ")).map(l -> Long.parseLong(l.substring(9).trim())).toList();
        } catch (java.io.IOException e) {
            return List.of();
        }
    }
}
