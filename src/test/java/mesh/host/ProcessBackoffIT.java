package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mesh.model.DeclarationJson;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.Test;

/**
 * ProcessBackoffIT, on simulated node n1 behind a real controller, the way an operator meets it: the
 * artifact store runs as module {@code mesh-registry} on the node, {@code mesh bundle push} finds it through
 * the controller's roster, and a module whose process exits 1 is pushed ({@code bundle: NAME:TAG}, resolved
 * by the controller). The agent restarts it after a backoff that doubles (the start times it writes into
 * its log grow apart); {@code mesh status} (the packaged CLI, through the controller) shows its last exit
 * status and restarts; {@code mesh host logs} shows its output.
 */
class ProcessBackoffIT {

    static final String CRASHING = "#!/bin/sh\necho \"start at $(date +%s%N)\"\necho 'giving up' >&2\nexit 1\n";

    @Test
    void aProcessThatExitsOneIsRestartedWithBackoffAndItsExitAndOutputAreShown() throws Exception {
        TestbedNodes.Node n1 = TestbedNodes.up(1).get(0);
        try (ProcessBed bed = new ProcessBed("process-backoff", n1);
             TestController controller = new TestController(bed.runDir.resolve("controller.log"))) {
            bed.startAgent();
            ok(controller.run("node", "add", bed.node, "--address", n1.address(), "--agent", bed.agent.url()));
            ok(controller.run("catalogue", "add", manifest(bed, "mesh-registry", """
                    module: mesh-registry
                    components:
                      mesh-registry.registry:
                        image: mesh-test/registry:2
                        ports: [5000]
                        health: {http: /v2/, port: 5000}
                    """).toString()));
            ok(controller.run("assign", bed.node, "mesh-registry"));
            ok(controller.run("push", "--wait"));

            // mesh bundle push finds the artifact store through the controller's roster (no --registry)
            Path dir = Files.createDirectories(bed.runDir.resolve("bundle-crashing"));
            Files.writeString(dir.resolve("run"), CRASHING);
            Files.setPosixFilePermissions(dir.resolve("run"), PosixFilePermissions.fromString("rwxr-xr-x"));
            PackagedMesh.Result pushed = ok(PackagedMesh.run(controller.env, "bundle", "push", dir.toString(), "it/crashing:1",
                    "--entrypoint", "run"));
            assertTrue(pushed.out().strip().matches("it/crashing@sha256:[0-9a-f]{64}"), pushed.toString());

            String name = "crash.app";
            ok(controller.run("catalogue", "add", manifest(bed, "crash", """
                    module: crash
                    components:
                      crash.app:
                        bundle: it/crashing:1
                        stop-timeout: 2s
                    """).toString()));
            ok(controller.run("assign", bed.node, "crash"));
            ok(controller.run("push", "--yes"));
            PackagedMesh.await("four starts in the log", Duration.ofSeconds(60), () -> starts(bed, name).size() >= 4);
            List<Long> starts = starts(bed, name);
            long first = starts.get(1) - starts.get(0);
            long third = starts.get(3) - starts.get(2);
            assertTrue(first >= 700_000_000L, "restarted after about 1 s, not at once: " + first + " ns");
            assertTrue(third > first + 1_000_000_000L, "the backoff doubles (1 s, 2 s, 4 s): gaps " + first + " then " + third);

            JsonNode c = ProcessComponentIT.component(bed.agent.get("/v1/status").json(), name);
            JsonNode p = c.path("process");
            assertEquals("exit 1", p.path("lastExit").asText(), c.toString());
            assertTrue(p.path("restarts").asInt() >= 2, c.toString());
            assertTrue(p.path("lastExit").asText().length() > 0 && p.path("lastExitAt").asText().length() > 0, c.toString());

            // mesh status, through the controller: the process's line carries its last exit status
            PackagedMesh.Result status = controller.run("status");
            String line = status.out().lines().filter(l -> l.contains(name) && l.contains("process")).findFirst()
                    .orElseThrow(() -> new AssertionError("no process line for " + name + " in mesh status:\n" + status));
            assertTrue(line.matches(".*\\d+ restarts?, last exit: exit 1 at \\S+.*"), line);
            JsonNode json = DeclarationJson.MAPPER.readTree(controller.run("status", "-o", "json").out());
            assertTrue(json.toString().contains("\"lastExit\":\"exit 1\""), json.toString());

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

    static PackagedMesh.Result ok(PackagedMesh.Result r) {
        assertEquals(0, r.exit(), r.toString());
        return r;
    }

    static Path manifest(ProcessBed bed, String module, String yaml) throws java.io.IOException {
        Path file = bed.runDir.resolve(module + ".yaml");
        Files.writeString(file, yaml);
        return file;
    }

    static List<Long> starts(ProcessBed bed, String component) {
        try {
            return Files.readAllLines(bed.stateDir.resolve("logs").resolve(component + ".log")).stream()
                    .filter(l -> l.startsWith("start at ")).map(l -> Long.parseLong(l.substring(9).trim())).toList();
        } catch (java.io.IOException e) {
            return List.of();
        }
    }
}
