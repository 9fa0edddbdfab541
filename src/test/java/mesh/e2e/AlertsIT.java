package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
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

/**
 * AlertsIT: an installed mesh of three nodes tells Debian's {@code prometheus-alertmanager}, started here as the
 * receiver ({@code mesh alerts add}), with a webhook of this test behind it that records every notification
 * (docs/metrics.md, "Alerts"). A node's agent and engine killed: one MeshNodeDown at Alertmanager within 60 s and no
 * alert for the module on it; the controller SIGKILLed while it fires: no second alert, the same start, and the resolve
 * arrives within 60 s of the node's return, saying how long it lasted. A module whose container is killed again and
 * again: one MeshModuleRestartLoop, not one per restart. Alertmanager's own inhibition is left out of its configuration
 * here, so the suppression seen is the controller's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class AlertsIT {

    static final ObjectMapper JSON = new ObjectMapper();
    /** The test bed's bridge address in the root namespace, which the seat's controller reaches. */
    static final String ROOT_ADDRESS = "10.77.0.1";

    InstalledMesh mesh;
    Path dir;
    Process alertmanager;
    HttpServer hook;
    int port;
    /** Every alert of every notification the webhook got, as Alertmanager sent it (its status, labels, annotations, times). */
    final List<JsonNode> notified = new CopyOnWriteArrayList<>();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** The test-bed node whose engine a test stopped and has not started again (the mesh's removal needs it). */
    String engineStopped;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(3);
        dir = Files.createTempDirectory("mesh-alerts");
        module("alrt", "exec httpd -f -p 8080 -h /www");
        module("loop", "exec httpd -f -p 8080 -h /www");
        mesh.ok("assign", "n2", "alrt");
        mesh.ok("assign", "n3", "loop");
        mesh.ok("push", "--wait");

        hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/hook", exchange -> {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            body.get("alerts").forEach(notified::add);
            System.out.println("AlertsIT: notified " + body.get("alerts"));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        hook.start();
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Files.writeString(dir.resolve("alertmanager.yml"), """
                route:
                  receiver: hook
                  group_by: [alertname, subject]
                  group_wait: 1s
                  group_interval: 1s
                  repeat_interval: 1h
                receivers:
                  - name: hook
                    webhook_configs:
                      - url: http://127.0.0.1:%d/hook
                        send_resolved: true
                """.formatted(hook.getAddress().getPort()));
        alertmanager = new ProcessBuilder("prometheus-alertmanager", "--config.file=" + dir.resolve("alertmanager.yml"),
                "--storage.path=" + dir.resolve("data"), "--web.listen-address=" + ROOT_ADDRESS + ":" + port,
                "--cluster.listen-address=")
                .redirectErrorStream(true).redirectOutput(dir.resolve("alertmanager.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        PackagedMesh.await("alertmanager answers", Duration.ofSeconds(30), () -> {
            try {
                return get("/api/v2/status").has("cluster");
            } catch (Exception | AssertionError e) {   // not listening yet, or not 200 yet
                return false;
            }
        });
    }

    void module(String name, String command) throws Exception {
        Files.writeString(dir.resolve(name + ".yaml"), """
                module: %1$s
                components:
                  %1$s.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "mkdir -p /www && echo %1$s > /www/index.html && %2$s"]
                    ports: [8080]
                    stop-timeout: 1s
                """.formatted(name, command));
        mesh.ok("catalogue", "add", dir.resolve(name + ".yaml").toString());
    }

    @AfterAll
    void close() throws Exception {
        if (alertmanager != null) {
            ProcessHandle.of(alertmanager.pid()).ifPresent(ProcessHandle::destroyForcibly);
            alertmanager.waitFor();
            System.out.println("AlertsIT: alertmanager's log:\n" + Files.readString(dir.resolve("alertmanager.log")));
        }
        if (hook != null) {
            hook.stop(0);
        }
        if (engineStopped != null) {
            TestbedNodes.startEngine(engineStopped);
        }
        if (mesh != null) {
            mesh.close();
        }
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
        }
    }

    String alertmanagerUrl() {
        return "http://" + ROOT_ADDRESS + ":" + port;
    }

    @Test
    @Order(1)
    void aReceiverIsAddedOnlyWhereAnAlertmanagerTakesAlertsAndBadOnesAreRefused() throws Exception {
        PackagedMesh.Result bad = mesh.mesh("alerts", "add", "ftp://" + ROOT_ADDRESS + ":" + port);
        assertEquals(1, bad.exit(), bad.toString());
        assertTrue(bad.err().contains("is not an Alertmanager's base URL"), bad.toString());
        int closed;
        try (ServerSocket free = new ServerSocket(0)) {
            closed = free.getLocalPort();
        }
        PackagedMesh.Result nobody = mesh.mesh("alerts", "add", "http://" + ROOT_ADDRESS + ":" + closed);
        assertEquals(1, nobody.exit(), nobody.toString());
        assertTrue(nobody.err().contains("no Alertmanager took an empty post at http://" + ROOT_ADDRESS + ":" + closed), nobody.toString());
        assertEquals(0, mesh.json("alerts", "list").get("receivers").size(), "nothing was added");

        String added = mesh.ok("alerts", "add", alertmanagerUrl() + "/");
        assertTrue(added.contains("alerts are posted to " + alertmanagerUrl() + "/api/v2/alerts"), added);
        JsonNode list = mesh.json("alerts", "list");
        assertEquals(alertmanagerUrl(), list.at("/receivers/0/url").asText(), list.toString());
        // the modules pushed a moment ago may be starting: pending, never firing, and gone once the controller sees them up
        assertTrue(list.get("alerts").findValues("firing").stream().noneMatch(JsonNode::asBoolean), "nothing fires: " + list);
        PackagedMesh.await("the controller's looks see the mesh healthy: no alert open", Duration.ofSeconds(60), () -> {
            try {
                return mesh.json("alerts", "list").get("alerts").isEmpty();
            } catch (Exception e) {
                return false;
            }
        });
        assertTrue(notified.isEmpty(), "nothing was notified: " + notified);
        assertTrue(mesh.ok("audit").contains("alerts are posted to " + alertmanagerUrl()), "the add is in the audit trail");
    }

    @Test
    @Order(2)
    void aDeadNodeIsOneAlertThatOutlivesAControllerKillAndResolvesWhenTheNodeIsBack() throws Exception {
        String n2 = mesh.testbed("n2").name();
        long killed = System.nanoTime();
        mesh.killAgent("n2");
        TestbedNodes.stopEngine(n2);
        engineStopped = n2;
        awaitNotified("Alertmanager notifies MeshNodeDown for n2", () -> !alerts("firing", "MeshNodeDown", "n2").isEmpty());
        System.out.printf("AlertsIT: MeshNodeDown for n2 notified %.1f s after its agent and engine were killed%n", secondsSince(killed));
        JsonNode active = activeFor("n2");
        assertEquals(1, active.size(), "one alert for n2 at Alertmanager, none for its module: " + active);
        assertEquals("MeshNodeDown", active.at("/0/labels/alertname").asText());
        String startsAt = active.at("/0/startsAt").asText();

        mesh.killController();
        mesh.awaitController(Duration.ofSeconds(120));
        Thread.sleep(12_000); // two of the restarted controller's looks
        JsonNode again = activeFor("n2");
        assertEquals(1, again.size(), "still one alert for n2 after the controller's restart: " + again);
        assertEquals(millis(startsAt), millis(again.at("/0/startsAt").asText()), "the same alert, from its first sight");
        assertEquals(1, alerts("firing", "MeshNodeDown", "n2").size(), "notified once: " + notified);
        assertTrue(alerts("firing", "MeshModuleUnhealthy", "n2").isEmpty() && alerts("firing", "MeshModuleRestartLoop", "n2").isEmpty(),
                "no alert for the dead node's module: " + notified);
        JsonNode listed = mesh.json("alerts", "list").get("alerts");
        assertEquals(1, listed.size(), listed.toString());
        assertTrue(listed.at("/0/firing").asBoolean(), listed.toString());

        TestbedNodes.startEngine(n2);
        engineStopped = null;
        mesh.startAgent("n2", Map.of());
        long back = System.nanoTime();
        awaitNotified("Alertmanager notifies MeshNodeDown for n2 resolved", () -> !alerts("resolved", "MeshNodeDown", "n2").isEmpty());
        System.out.printf("AlertsIT: the resolve came %.1f s after n2's agent answered again%n", secondsSince(back));
        JsonNode resolved = alerts("resolved", "MeshNodeDown", "n2").get(0);
        assertTrue(resolved.at("/annotations/lasted").asText().matches("(\\d+[hms])+"), resolved.toString());
        assertEquals(millis(startsAt), millis(resolved.get("startsAt").asText()), resolved.toString());
        assertEquals(1, alerts("firing", "MeshNodeDown", "n2").size(), "never notified again: " + notified);
        JsonNode list = mesh.json("alerts", "list");
        assertTrue(list.at("/resolved/0/lasted").asLong() >= 30, "it lasted at least its 30 s: " + list);
    }

    @Test
    @Order(3)
    void aModuleKilledAgainAndAgainIsOneAlertNotOnePerRestart() throws Exception {
        // killed each time it runs again (the agent starts it again at its next pass, after a growing backoff), until the
        // controller's alert is notified or three minutes pass
        long began = System.nanoTime();
        int kills = 0;
        long lastPid = 0;
        while (alerts("firing", "MeshModuleRestartLoop", "n3").isEmpty() && secondsSince(began) < 180) {
            long pid = runningPid("n3", "loop.app");
            if (pid != 0 && pid != lastPid) {
                Process p = new ProcessBuilder("kill", "-KILL", Long.toString(pid)).inheritIO().start();
                assertEquals(0, p.waitFor(), "kill -KILL " + pid);
                lastPid = pid;
                kills++;
            }
            Thread.sleep(500);
        }
        System.out.printf("AlertsIT: MeshModuleRestartLoop for loop notified %.1f s after the first of %d kills%n",
                secondsSince(began), kills);
        awaitNotified("Alertmanager notifies MeshModuleRestartLoop for loop", () -> !alerts("firing", "MeshModuleRestartLoop", "n3").isEmpty());
        assertTrue(kills >= 3, "killed " + kills + " times");
        Thread.sleep(12_000); // two more looks while it still loops or settles
        List<JsonNode> loops = alerts("firing", "MeshModuleRestartLoop", "n3");
        assertEquals(1, loops.size(), "one alert for " + kills + " kills: " + notified);
        assertEquals("loop", loops.get(0).at("/labels/module").asText(), loops.toString());
    }

    /** Waits 60 s at most for {@code done}; on a miss, says what the controller's alerts and Alertmanager's were. */
    void awaitNotified(String what, java.util.function.BooleanSupplier done) throws Exception {
        try {
            PackagedMesh.await(what, Duration.ofSeconds(60), done);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; mesh alerts list: " + mesh.mesh("alerts", "list", "-o", "json")
                    + "; Alertmanager's alerts: " + get("/api/v2/alerts") + "; notified: " + notified, e);
        }
    }

    /** The pid of the component's container's process while it runs, else 0. */
    long runningPid(String node, String component) {
        try {
            return mesh.engine(node).inspectContainerCmd(container(node, component)).exec().getState().getPidLong();
        } catch (Exception | AssertionError e) {
            return 0;
        }
    }

    String container(String node, String component) throws Exception {
        for (JsonNode c : mesh.agent(node, "/v1/status").get("components")) {
            if (component.equals(c.get("name").asText()) && c.hasNonNull("containerId")) {
                return c.get("containerId").asText();
            }
        }
        throw new AssertionError(component + " has no container on " + node);
    }

    /** The alerts notified so far with {@code status}, {@code alertname} and label {@code node}. */
    List<JsonNode> alerts(String status, String alertname, String node) {
        List<JsonNode> found = new ArrayList<>();
        notified.stream().filter(a -> status.equals(a.get("status").asText()) && alertname.equals(a.at("/labels/alertname").asText())
                && node.equals(a.at("/labels/node").asText())).forEach(found::add);
        return found;
    }

    /** The alerts Alertmanager holds active now for label node={@code node}. */
    JsonNode activeFor(String node) throws Exception {
        return get("/api/v2/alerts?active=true&silenced=false&inhibited=true&filter="
                + URLEncoder.encode("node=\"" + node + "\"", StandardCharsets.UTF_8));
    }

    JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(alertmanagerUrl() + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    /** An instant to the millisecond: Alertmanager's API says its times in milliseconds, its webhook as it was given them. */
    static java.time.Instant millis(String instant) {
        return java.time.Instant.parse(instant).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }
}
