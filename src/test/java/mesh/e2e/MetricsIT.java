package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
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
import java.util.Map;
import java.util.OptionalDouble;
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
 * MetricsIT scrapes an installed mesh of three nodes ({@link InstalledMesh}: HTTPS, mutual TLS) with Debian's
 * {@code prometheus}, started here on 127.0.0.1 with the block {@code mesh metrics scrape-config --interval 2s}
 * printed, and asks it in PromQL over its HTTP API: the controller and the three agents are scraped over TLS with
 * the scraper's certificate; {@code sum(mesh_node_up)} is 3, and 2 within two scrape intervals of an agent's
 * SIGKILL; a module's restarts counter (the agent's {@code mesh_component_restarts_total}, and the controller's
 * {@code mesh_module_restarts_total}) rises when its container's process is killed (docs/metrics.md). The example
 * alerting rules of examples/prometheus are loaded too: none fires on the healthy mesh, and MeshNodeDown is pending
 * for the killed agent's node.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class MetricsIT {

    static final String MODULE = "metr";
    static final Duration INTERVAL = Duration.ofSeconds(2);
    static final ObjectMapper JSON = new ObjectMapper();

    InstalledMesh mesh;
    Path dir;
    Process prometheus;
    int port;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(3);
        dir = Files.createTempDirectory("mesh-metrics");
        Files.writeString(dir.resolve("metr.yaml"), """
                module: metr
                components:
                  metr.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "mkdir -p /www && echo metr > /www/index.html && exec httpd -f -p 8080 -h /www"]
                    ports: [8080]
                    stop-timeout: 1s
                """);
        mesh.ok("catalogue", "add", dir.resolve("metr.yaml").toString());
        mesh.ok("assign", "n2", MODULE);
        mesh.ok("push", "--wait");
        String config = mesh.ok("metrics", "scrape-config", "--dir", dir.resolve("scraper").toString(), "--interval", "2s");
        System.out.println("MetricsIT: the printed scrape config:\n" + config);
        // the printed block as it is, with the example alerting rules of docs/metrics.md evaluated every 2 s
        Files.copy(Path.of("examples/prometheus/mesh-alerts.yml"), dir.resolve("mesh-alerts.yml"));
        Files.writeString(dir.resolve("prometheus.yml"), "global:\n  evaluation_interval: 2s\nrule_files:\n  - "
                + dir.resolve("mesh-alerts.yml") + "\n" + config);
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        prometheus = new ProcessBuilder("prometheus", "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        try {
            PackagedMesh.await("prometheus scrapes the controller and three agents", Duration.ofSeconds(60),
                    () -> value("count(up{job=~\"mesh-controller|mesh-agents\"} == 1)").orElse(0) == 4);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; prometheus's targets: " + get("/api/v1/targets"), e);
        }
    }

    @AfterAll
    void close() throws Exception {
        if (prometheus != null) {
            ProcessHandle.of(prometheus.pid()).ifPresent(ProcessHandle::destroyForcibly);
            prometheus.waitFor();
            System.out.println("MetricsIT: prometheus's log:\n" + Files.readString(dir.resolve("prometheus.log")));
        }
        if (mesh != null) {
            mesh.close();
        }
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
        }
    }

    @Test
    @Order(1)
    void theControllerAndEveryAgentAreScrapedOverTlsAndThreeNodesAreUp() throws Exception {
        assertEquals(3, value("sum(mesh_node_up)").orElse(-1), "sum(mesh_node_up)");
        assertEquals(3, value("count(mesh_agent_applied_generation > 0)").orElse(-1), "agents that applied a declaration");
        assertEquals(1, value("mesh_store_up").orElse(-1), "mesh_store_up");
        assertEquals(1, value("mesh_module_running{module=\"metr\",node=\"n2\"}").orElse(-1), "the module runs on n2");
        assertTrue(value("min(mesh_certificate_expiry_timestamp_seconds) - time()").orElse(0) > 300 * 86400,
                "the certificates expire in about a year");
        assertTrue(value("min(mesh_disk_free_bytes)").orElse(0) > 0, "disk free is said");
        double share = value("min(mesh_disk_free_bytes / mesh_disk_size_bytes)").orElse(-1);
        assertTrue(share > 0 && share <= 1, "free share of the disk: " + share);
        assertEquals(0, value("count(ALERTS)").orElse(0), "no example alert fires on a healthy mesh");
        JsonNode targets = get("/api/v1/targets");
        assertEquals(4, targets.at("/data/activeTargets").size(), targets.toString());
        targets.at("/data/activeTargets").forEach(t -> assertTrue(t.get("scrapeUrl").asText().startsWith("https://"), t.toString()));
        // the scraper's certificate opens /metrics and nothing else; /metrics answers no other certificate
        String base = null;
        for (JsonNode n : mesh.controller("/v1/mesh/nodes")) {
            base = "n2".equals(n.get("name").asText()) ? n.get("agent").asText() : base;
        }
        assertEquals("200", curl(base + "/metrics", true), "the scraper's certificate reads an agent's metrics");
        assertEquals("401", curl(base + "/v1/status", true), "the scraper's certificate opens no other call of an agent");
        assertEquals("401", curl(base + "/metrics", false), "an agent's metrics without a client certificate");
        assertEquals("401", curl(controllerUrl(targets).replace("/metrics", "/v1/mesh/status"), true),
                "the scraper's certificate opens no operator call of the controller");
        assertEquals("401", curl(controllerUrl(targets), false), "the controller's metrics without a client certificate");
    }

    static String controllerUrl(JsonNode targets) {
        for (JsonNode t : targets.at("/data/activeTargets")) {
            if ("mesh-controller".equals(t.at("/labels/job").asText())) {
                return t.get("scrapeUrl").asText();
            }
        }
        throw new AssertionError("no controller target: " + targets);
    }

    /** The HTTP status curl gets for {@code url}, trusting the mesh CA alone, with the scraper's certificate or none. */
    String curl(String url, boolean withScraper) throws Exception {
        Path s = dir.resolve("scraper");
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("curl", "-s", "-o", "/dev/null",
                "-w", "%{http_code}", "--max-time", "10", "--cacert", s.resolve("ca.crt").toString()));
        if (withScraper) {
            command.addAll(java.util.List.of("--cert", s.resolve("scraper.crt").toString(), "--key", s.resolve("scraper.key").toString()));
        }
        command.add(url);
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String code = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return code;
    }

    @Test
    @Order(2)
    void aKilledAgentIsDownWithinTwoScrapeIntervals() throws Exception {
        long killed = System.nanoTime();
        mesh.killAgent("n3");
        PackagedMesh.await("sum(mesh_node_up) is 2", INTERVAL.multipliedBy(5),
                () -> value("sum(mesh_node_up)").orElse(-1) == 2);
        double seconds = (System.nanoTime() - killed) / 1e9;
        System.out.printf("MetricsIT: sum(mesh_node_up) was 2 %.1f s after the SIGKILL%n", seconds);
        assertTrue(seconds <= 2 * INTERVAL.toSeconds() + 0.5, "took " + seconds + " s, more than two scrape intervals");
        assertEquals(0, value("mesh_node_up{node=\"n3\"}").orElse(-1), "mesh_node_up{node=n3}");
        PackagedMesh.await("the example rule MeshNodeDown is pending for n3", INTERVAL.multipliedBy(5),
                () -> value("ALERTS{alertname=\"MeshNodeDown\",node=\"n3\",alertstate=\"pending\"}").orElse(0) == 1);
        mesh.startAgent("n3", Map.of());
        PackagedMesh.await("sum(mesh_node_up) is 3 again", Duration.ofSeconds(30), () -> value("sum(mesh_node_up)").orElse(-1) == 3);
    }

    @Test
    @Order(3)
    void aModulesRestartsCounterRisesWhenItsContainerIsKilled() throws Exception {
        String query = "sum(mesh_component_restarts_total{module=\"metr\"})";
        String controllerQuery = "sum(mesh_module_restarts_total{module=\"metr\"})";
        double before = value(query).orElse(-1);
        double controllerBefore = value(controllerQuery).orElse(-1);
        assertTrue(before >= 0 && controllerBefore >= 0, "restarts before: " + before + ", " + controllerBefore);
        String id = null;
        for (JsonNode c : mesh.agent("n2", "/v1/status").get("components")) {
            id = "metr.app".equals(c.get("name").asText()) ? c.get("containerId").asText() : id;
        }
        long pid = mesh.engine("n2").inspectContainerCmd(id).exec().getState().getPidLong();
        Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(pid)).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -KILL " + pid);
        PackagedMesh.await(query + " rises above " + before, Duration.ofSeconds(60), () -> value(query).orElse(-1) > before);
        PackagedMesh.await(controllerQuery + " rises above " + controllerBefore, Duration.ofSeconds(30),
                () -> value(controllerQuery).orElse(-1) > controllerBefore);
        System.out.printf("MetricsIT: restarts of metr %.0f -> %.0f%n", before, value(query).orElse(-1));
    }

    /**
     * The value of an instant query's single sample, or empty when it has none or Prometheus does not answer 200: it
     * listens some milliseconds before it is ready and answers 503 meanwhile (a first query under load landed there).
     */
    OptionalDouble value(String promql) {
        try {
            JsonNode result = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).at("/data/result");
            return result.size() == 1 ? OptionalDouble.of(result.get(0).get("value").get(1).asDouble()) : OptionalDouble.empty();
        } catch (Exception | AssertionError e) {
            return OptionalDouble.empty();
        }
    }

    JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }
}
