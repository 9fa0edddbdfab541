package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.model.ComponentSpec;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.Test;

/**
 * ProcessComponentIT runs a component of process form end to end on real parts, on simulated node n1:
 * {@code mesh bundle push} (the packaged CLI) to the test registry ({@code mesh-test/registry:2} on the
 * node's engine), a declaration with the process and two containers pushed to the packaged agent, which
 * runs in the node's network namespace against the node's engine, fetches and verifies the bundle and
 * runs it under its supervisor. The process answers on its port at the
 * node's address, resolves its bound name to the declared address, and keeps its volume's data; a second
 * apply of the same components touches nothing (same pid and start time, no engine event); a new VERSION
 * restarts exactly the process.
 */
class ProcessComponentIT {

    static final int PORT = PackagedMesh.freePort();

    @Test
    void aBundleRunsAsAProcessBesideContainersAndASecondApplyTouchesNothing() throws Exception {
        TestbedNodes.Node n1 = TestbedNodes.up(1).get(0);
        try (ProcessBed bed = new ProcessBed("process-component", n1)) {
            String bundle = bed.pushBundle("it/web:1", 0);
            assertTrue(bundle.matches("it/web@sha256:[0-9a-f]{64}"), bundle);
            bed.startAgent();
            List<ComponentSpec> components = List.of(
                    bed.process(bed.node + ".web", bundle, PORT, Map.of("db.internal", "10.77.0.42"), "one"),
                    bed.container(bed.node + ".a", "one", List.of(bed.node + ".web")),
                    bed.container(bed.node + ".b", "one", List.of()));
            AgentProcess.Answer put = bed.agent.put(bed.declaration(components));
            assertEquals(201, put.status(), put.body());
            JsonNode status = bed.agent.awaitSettled(bed.generation, Duration.ofSeconds(60));   // running means healthy: past "starting"

            assertEquals("one\n", bed.get(PORT, "/version.txt"), "the process answers on the node's address");
            String hosts = bed.get(PORT, "/hosts.txt");
            assertEquals("127.0.0.1 localhost\n::1 localhost\n10.77.0.42 db.internal\n", hosts,
                    "its /etc/hosts holds localhost and exactly its bound name");
            String marker = bed.get(PORT, "/marker.txt");
            assertTrue(Files.readString(bed.stateDir.resolve("volumes").resolve(bed.node + "_data").resolve("marker"))
                    .equals(marker), "its volume is the folder of the module's volume");

            JsonNode web = component(status, bed.node + ".web");
            assertEquals("running", web.path("state").asText(), web.toString());
            assertEquals("running", web.path("process").path("state").asText(), web.toString());
            long pid = web.path("process").path("pid").asLong();
            List<Long> shims = ProcessBed.shims(bed.node + ".web");
            assertEquals(List.of(pid), shims, "exactly one copy runs, the one the status names");
            assertTrue(web.path("digest").asText().startsWith("v3:"), web.toString());
            assertEquals(web.path("digest").asText(), ProcessBed.shimDigest(pid));
            assertEquals(netns(n1), Files.readSymbolicLink(Path.of("/proc", Long.toString(bed.agent.pid()), "ns/net")).toString(),
                    "the agent runs in the node's network namespace");
            assertEquals(netns(n1), Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns/net")).toString(),
                    "so does its process");
            long started = ProcessBed.startTime(pid);
            Map<String, String> containers = containers(bed);
            assertEquals(2, containers.size(), containers.toString());

            // the same components again: nothing is touched
            Thread.sleep(1100);
            long since = System.currentTimeMillis() / 1000;
            AgentProcess.Answer again = bed.agent.put(bed.declaration(components));
            assertEquals(201, again.status(), again.body());
            assertTrue(again.json().path("plan").path("summary").asText().startsWith("nothing to do"), again.body());
            bed.agent.awaitConverged(bed.generation, Duration.ofSeconds(30));
            Thread.sleep(2500);   // two passes of the agent's loop
            long until = System.currentTimeMillis() / 1000 + 1;
            assertEquals(List.of(pid), ProcessBed.shims(bed.node + ".web"));
            assertEquals(started, ProcessBed.startTime(pid), "same pid, same start time");
            assertEquals(containers, containers(bed), "same containers, same start times");
            assertEquals(List.of(), events(bed, since, until), "the node engine's events for these containers during the second apply");

            // a new VERSION (env) restarts exactly the process
            List<ComponentSpec> changed = List.of(
                    bed.process(bed.node + ".web", bundle, PORT, Map.of("db.internal", "10.77.0.42"), "two"),
                    components.get(1), components.get(2));
            AgentProcess.Answer third = bed.agent.put(bed.declaration(changed));
            assertEquals(201, third.status(), third.body());
            assertEquals(List.of(bed.node + ".web"), names(third.json().path("plan").path("replace")), third.body());
            JsonNode after = bed.agent.awaitSettled(bed.generation, Duration.ofSeconds(60));   // converged is not yet listening
            assertEquals("two\n", bed.get(PORT, "/version.txt"));
            assertEquals(marker, bed.get(PORT, "/marker.txt"), "its data is kept across the replace");
            long newPid = component(after, bed.node + ".web").path("process").path("pid").asLong();
            assertEquals(List.of(newPid), ProcessBed.shims(bed.node + ".web"));
            assertTrue(newPid != pid);
            assertEquals(containers, containers(bed), "the containers are untouched");
        }
    }

    /** The node's network namespace as /proc shows a process's: {@code net:[INODE]} of /run/netns/NAME. */
    static String netns(TestbedNodes.Node n) throws java.io.IOException {
        return "net:[" + Files.getAttribute(Path.of("/run/netns", n.name()), "unix:ino") + "]";
    }

    static JsonNode component(JsonNode status, String name) {
        for (JsonNode c : status.path("components")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no component " + name + " in " + status);
    }

    static List<String> names(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.forEach(n -> names.add(n.path("name").asText()));
        return names;
    }

    /** Container name → id and start time. */
    static Map<String, String> containers(ProcessBed bed) {
        Map<String, String> all = new TreeMap<>();
        for (Container c : bed.containers()) {
            var inspect = bed.docker.inspectContainerCmd(c.getId()).exec();
            assertNotNull(inspect.getState().getStartedAt());
            all.put(c.getNames()[0], c.getId() + " " + inspect.getState().getStartedAt());
        }
        return all;
    }

    static List<String> events(ProcessBed bed, long since, long until) throws InterruptedException {
        List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
        bed.docker.eventsCmd().withSince(Long.toString(since)).withUntil(Long.toString(until))
                .withLabelFilter(Map.of("mesh.node", bed.node))
                .exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<Event>() {
                    @Override
                    public void onNext(Event e) {
                        events.add(e.getAction() + " " + e.getId());
                    }
                }).awaitCompletion(30, java.util.concurrent.TimeUnit.SECONDS);
        return events;
    }
}
