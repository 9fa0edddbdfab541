package mesh.controller;

import static mesh.controller.ApiCall.files;
import static mesh.controller.ApiCall.node;
import static mesh.controller.ApiCall.post;
import static mesh.controller.ApiCall.put;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mesh.testbed.PackagedMesh;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ErrorMessagesIT drives the packaged CLI and both APIs (this controller, over the test bed's
 * PostgreSQL, and a real host agent process) through bad inputs beyond ControllerInputIT's: bad URLs
 * and environment values, swapped and missing arguments, unknown verbs and options, path-unsafe and
 * oversized names, wrong JSON types, extreme numbers, empty bodies, wrong methods. Each answer must
 * name what was wrong, show nothing of the implementation (no Java class, exception, library name
 * or stack frame) on stdout, stderr or in the body, and leave the store (every row) and the agent's
 * records as they were. The seed is ControllerInputIT's: nodes novox (10.77.0.11) and ace
 * (10.77.0.12), modules web, db and app, web assigned to novox.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ErrorMessagesIT {

    /** What no answer may show: the implementation's names and stack frames. */
    static final List<String> FORBIDDEN = List.of("java.", "Exception", "Coercion", "jackson", "quarkus", "\tat ", "at mesh.",
            "is not an int", "is not a long", "is not a boolean");
    static final String AGENT_TOKEN = "errors-it-agent-" + System.nanoTime();

    @Inject
    MeshController controller;

    @Inject
    AgroalDataSource dataSource;

    @TestHTTPResource("/")
    URL root;

    String token;
    String controllerUrl;
    String agentUrl;
    Process agent;
    Path scratch;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    @BeforeAll
    void start() throws Exception {
        if (!controller.serving()) {
            String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
            controller.start(new ControllerSettings(url, "errors-it-" + System.nanoTime(), ControllerSettings.DEFAULT_PUSH_BUDGET, 0));
        }
        token = controller.settings().token();
        controllerUrl = root.toString().replaceAll("/+$", "");
        scratch = Files.createTempDirectory("mesh-errors-it");
        Files.createDirectories(scratch.resolve("empty"));
        Files.createDirectories(scratch.resolve("state"));
        int port = PackagedMesh.freePort();
        agentUrl = "http://127.0.0.1:" + port;
        ProcessBuilder b = new ProcessBuilder(mesh.testbed.Launcher.shared().command(null, List.of("host", "serve")))
                .redirectErrorStream(true).redirectOutput(scratch.resolve("agent.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        b.environment().putAll(Map.of("MESH_HOST_NODE", "ace", "MESH_HOST_TOKEN", AGENT_TOKEN, "MESH_HOST_LISTEN", "127.0.0.1:" + port, "MESH_HOST_STATE_DIR", scratch.resolve("state").toString(),
                "MESH_PLAIN_HTTP", "yes"));   // plain HTTP on loopback, MESH_HOST_TOKEN its test credential (docs/trust.md)
        agent = b.start();
        PackagedMesh.await("the agent answers at " + agentUrl, Duration.ofSeconds(60),
                () -> agentCall("GET", "/v1/status", null, AGENT_TOKEN).statusCode() == 200);
    }

    @AfterAll
    void stop() throws Exception {
        if (agent != null) {
            agent.destroy();
            if (!agent.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                agent.destroyForcibly();
            }
        }
        PackagedMesh.deleteTree(scratch);
        StoreSnapshot.wipe(dataSource);
    }

    @BeforeEach
    void seed() {
        StoreSnapshot.wipe(dataSource);
        for (ApiCall call : List.of(
                post("/v1/mesh/nodes", node("novox", "10.77.0.11")),
                post("/v1/mesh/nodes", node("ace", "10.77.0.12")),
                post("/v1/mesh/catalogue", files("web.yaml", ControllerInputIT.WEB, "db.yaml", ControllerInputIT.DB,
                        "app.yaml", ControllerInputIT.APP)),
                put("/v1/mesh/nodes/novox/modules/web"))) {
            var r = call.send(token);
            assertEquals(2, r.statusCode() / 100, "seeding: " + call + " → " + r.asString());
        }
    }

    /** Bad is one bad input: over which door, the request or command line, and what the answer must name. */
    record Bad(String name, Door door, String method, String path, String body, Map<String, String> env,
               List<String> args, List<String> names) {
        @Override
        public String toString() {
            return door + ": " + name;
        }
    }

    enum Door { CONTROLLER, AGENT, CLI }

    static Bad api(String method, String path, String body, String... names) {
        return new Bad(method + " " + path + (body == null ? "" : " " + abbreviate(body)), Door.CONTROLLER, method, path,
                body, Map.of(), List.of(), List.of(names));
    }

    static Bad agentApi(String method, String path, String body, String... names) {
        return new Bad(method + " " + path + (body == null ? "" : " " + abbreviate(body)), Door.AGENT, method, path,
                body, Map.of(), List.of(), List.of(names));
    }

    static Bad cli(List<String> args, String... names) {
        return new Bad("mesh " + String.join(" ", args), Door.CLI, null, null, null, Map.of(), args, List.of(names));
    }

    static Bad cliEnv(Map<String, String> env, List<String> args, String... names) {
        return new Bad(env.keySet() + " " + env.values().stream().map(v -> v.replace("\n", "\\n")).toList()
                + " mesh " + String.join(" ", args), Door.CLI, null, null, null, env, args, List.of(names));
    }

    static String abbreviate(String body) {
        return body.length() > 60 ? body.substring(0, 60) + "…(" + body.length() + " chars)" : body;
    }

    static String declaration(String field, String value) {
        Map<String, String> d = new java.util.LinkedHashMap<>(Map.of("node", "\"ace\"", "address", "\"10.77.0.12\"",
                "generation", "1", "components", "[]"));
        d.put(field, value);
        StringBuilder b = new StringBuilder("{");
        d.forEach((k, v) -> b.append(b.length() > 1 ? "," : "").append('"').append(k).append("\":").append(v));
        return b.append('}').toString();
    }

    static final String LONG = "a".repeat(5000);

    static Stream<Bad> controllerCases() {
        return Stream.of(
                api("POST", "/v1/mesh/nodes", "{\"name\":\"shanks\",\"address\":\"10.77.0.13\",\"agent\":5}", "agent"),
                api("POST", "/v1/mesh/nodes", "{\"name\":\"shanks\",\"address\":1e999}", "address"),
                api("POST", "/v1/mesh/nodes", "{\"name\":\"shanks\",\"address\":4294967296}", "address"),
                api("POST", "/v1/mesh/nodes", "{\"name\":\"shanks\",\"address\":true}", "address"),
                api("POST", "/v1/mesh/nodes", node("..", "10.77.0.13"), "node name", "'..'"),
                api("POST", "/v1/mesh/nodes", node("../etc", "10.77.0.13"), "node name", "'../etc'"),
                api("POST", "/v1/mesh/nodes", node("a/b", "10.77.0.13"), "node name", "'a/b'"),
                api("POST", "/v1/mesh/nodes", node("a".repeat(64), "10.77.0.13"), "node name"),
                api("POST", "/v1/mesh/nodes", node(LONG, "10.77.0.13"), "node name"),
                api("POST", "/v1/mesh/nodes", node("shanks", "10.77.0.11"), "address 10.77.0.11", "novox"),
                api("POST", "/v1/mesh/nodes", node("shanks", "10.77.0.13", "http://10.77.0.11:7701"), "agent", "novox"),
                api("POST", "/v1/mesh/nodes", "null", "JSON body"),
                api("POST", "/v1/mesh/nodes", "\"shanks\"", "name"),
                api("POST", "/v1/mesh/nodes", "[]", "name"),
                api("POST", "/v1/mesh/nodes", "{}", "node name"),
                api("POST", "/v1/mesh/nodes", node("shanks", ""), "address"),
                api("POST", "/v1/mesh/nodes", node("shanks", "10.77.0.13", "http://"), "agent", "'http://'"),
                api("POST", "/v1/mesh/nodes", node("shanks", "10.77.0.13", "javascript:alert(1)"), "agent"),
                api("POST", "/v1/mesh/nodes", node("shanks", "10.77.0.13", "http://a b"), "agent"),
                api("POST", "/v1/mesh/nodes", "<node name='shanks'/>", "JSON"),
                api("PUT", "/v1/mesh/nodes/ace", "{}", "address"),
                api("PUT", "/v1/mesh/nodes/ace", "{\"address\":\"10.77.0.11\"}", "novox"),
                api("PUT", "/v1/mesh/nodes/ace", "{\"address\":\"300.1.1.1\"}", "'300.1.1.1'"),
                api("PUT", "/v1/mesh/nodes/ace", "{\"agent\":\"ftp://x\"}", "'ftp://x'"),
                api("PUT", "/v1/mesh/nodes/ace", "{\"agent\":\"http://10.77.0.11:7701\"}", "novox"),
                api("PUT", "/v1/mesh/nodes/nope", "{\"address\":\"10.77.0.50\"}", "unknown node nope"),
                api("PUT", "/v1/mesh/nodes/ace", "{\"address\":[\"10.77.0.50\"]}", "address"),
                api("PUT", "/v1/mesh/nodes/ace", "{\"colour\":1}", "colour"),
                api("PUT", "/v1/mesh/nodes/ace", null, "JSON body"),
                api("POST", "/v1/mesh/nodes/nope/token", null, "unknown node nope"),
                api("GET", "/v1/mesh/catalogue/nope", null, "unknown module nope"),
                api("DELETE", "/v1/mesh/catalogue/web", null, "module web", "novox"),
                api("DELETE", "/v1/mesh/catalogue/nope", null, "unknown module nope"),
                api("GET", "/v1/mesh/catalogue/%2E%2E", null, "'.' or '..'", "%2E%2E"),
                api("GET", "/v1/mesh/catalogue/..", null, "'.' or '..'"),
                api("PUT", "/v1/mesh/nodes/web/modules/ace", null, "mesh assign ace web"),
                api("DELETE", "/v1/mesh/nodes/web/modules/novox", null, "mesh unassign novox web"),
                api("PUT", "/v1/mesh/nodes/ace/modules/%2E%2E", null, "'.' or '..'", "%2E%2E"),
                api("PUT", "/v1/mesh/nodes/ace/modules/%2e", null, "'.' or '..'"),
                api("PUT", "/v1/mesh/nodes/%2E%2E%2Fetc/modules/web", null, "unknown node ../etc"),
                api("GET", "/v1/mesh/status?refresh=maybe", null, "refresh", "'maybe'"),
                api("GET", "/v1/mesh/nope", null, "/v1/mesh/nope"),
                api("DELETE", "/v1/mesh/nodes", null, "DELETE"),
                api("PATCH", "/v1/mesh/nodes/ace", null, "PATCH"),
                api("GET", "/v1/mesh/push", null, "GET"),
                api("POST", "/v1/mesh/roster", "{}", "POST"),
                api("POST", "/v1/mesh/push", "{\"nodes\":\"ace\"}", "nodes"),
                api("POST", "/v1/mesh/push", "{\"nodes\":[5]}", "nodes"),
                api("POST", "/v1/mesh/push", "{\"yes\":2}", "yes"),
                api("POST", "/v1/mesh/push", "{\"dryRun\":true,\"extra\":1}", "extra"),
                api("POST", "/v1/mesh/push", "[", "malformed JSON"),
                api("POST", "/v1/mesh/push", "{\"nodes\":[\"../x\"]}", "unknown node ../x"),
                api("POST", "/v1/mesh/catalogue", "{\"file\":\"a.yaml\",\"yaml\":\"module: a\"}", "file"),
                api("POST", "/v1/mesh/catalogue", "[{\"file\":5,\"yaml\":\"x\"}]", "file"),
                api("POST", "/v1/mesh/catalogue", files("big.yaml",
                        "module: a\ncomponents:\n  a.web:\n    image: x\n    ports: [99999999999999999999]\n"), "ports"),
                api("POST", "/v1/mesh/catalogue", files("neg.yaml",
                        "module: a\ncomponents:\n  a.web:\n    image: x\n    ports: [-1]\n"), "-1"),
                api("POST", "/v1/mesh/catalogue", files("dots.yaml", "module: ..\ncomponents:\n  a.web:\n    image: x\n"), "module:", "got \\\"..\\\""),
                api("POST", "/v1/mesh/catalogue", files("path.yaml", "module: a\ncomponents:\n  ../x:\n    image: x\n"), "../x"),
                api("PUT", "/v1/mesh/nodes/ace/public-domain", "{\"domain\":5}", "domain"),
                api("PUT", "/v1/mesh/nodes/ace/public-domain", "{\"domain\":\"" + "a".repeat(300) + ".be\"}", "not a domain name"),
                api("PUT", "/v1/mesh/nodes/ace/public-domain", "{\"domain\":\"../be\"}", "'../be'"),
                // what an operator hits on an installed mesh: NUL and control characters, out-of-range instants, size limits
                api("DELETE", "/v1/mesh/nodes/g14%00", null, "'g14%00'", "a NUL character"),
                api("GET", "/v1/mesh/catalogue/web%1b", null, "'web%1b'", "a control character (%1B)"),
                api("GET", "/v1/mesh/audit?since=%00", null, "since", "a NUL character"),
                api("POST", "/v1/mesh/nodes", "{\"name\":\"g14\\u0000\",\"address\":\"10.77.0.13\"}", "name holds a NUL character"),
                api("PUT", "/v1/mesh/nodes/ace/public-domain", "{\"domain\":\"zurag.be\\u0000\"}", "domain holds a NUL character"),
                api("POST", "/v1/mesh/catalogue", files("nul.yaml", "module: a\0\ncomponents: {}\n"), "[0].yaml holds a NUL character"),
                api("GET", "/v1/mesh/audit?since=%2B1000000000-01-01T00:00:00Z", null, "since", "0001-01-01T00:00:00Z",
                        "9999-12-31T23:59:59Z", "'+1000000000-01-01T00:00:00Z'"),
                api("GET", "/v1/mesh/audit?since=-0005-01-01T00:00:00Z", null, "since", "0001-01-01T00:00:00Z"),
                api("POST", "/v1/mesh/catalogue", "[{\"file\":\"big.yaml\",\"yaml\":\"" + "x".repeat(12 * 1024 * 1024) + "\"}]",
                        "the request body is 12.0 MB", "at most 10.0 MB (10485760 bytes)"),
                api("POST", "/v1/mesh/catalogue", files("port.yaml",
                        "module: p\ncomponents:\n  p.web:\n    image: x\n    binds: [db.internal:5432]\n"),
                        "db.internal:5432", "binds take the name alone (db.internal)"),
                api("POST", "/v1/mesh/catalogue", files("route.yaml",
                        "module: r\ncomponents:\n  r.web:\n    image: x\n    ports: [8080]\nroutes:\n  www: {component: r.web, port: 80}\n"),
                        "module r: route www goes to port 80 of r.web", "its ports: 8080"),
                api("POST", "/v1/mesh/catalogue", files("route.yaml",
                        "module: r\ncomponents:\n  r.web:\n    image: x\nroutes:\n  www: {component: r.web, port: 80, domain: zurag.be}\n"),
                        "module r: route www.zurag.be goes to port 80 of r.web, which publishes no port"),
                api("POST", "/v1/mesh/catalogue", files("vols.yaml",
                        "module: v\ncomponents:\n  v.run:\n    bundle: tool\n    volumes: {my-data: /a, my_data: /b}\n"),
                        "volumes my-data and my_data", "MESH_VOLUME_MY_DATA"));
    }

    static Stream<Bad> agentCases() {
        return Stream.of(
                agentApi("PUT", "/v1/declaration", "", "declaration"),
                agentApi("PUT", "/v1/declaration", "{}", "generation"),
                agentApi("PUT", "/v1/declaration", "[", "malformed JSON"),
                agentApi("PUT", "/v1/declaration", "null", "declaration"),
                agentApi("PUT", "/v1/declaration", declaration("generation", "\"x\""), "generation"),
                agentApi("PUT", "/v1/declaration", declaration("generation", "-1"), "generation"),
                agentApi("PUT", "/v1/declaration", declaration("generation", "1e400"), "generation"),
                agentApi("PUT", "/v1/declaration", declaration("generation", "99999999999999999999999"), "generation"),
                agentApi("PUT", "/v1/declaration", declaration("node", "5"), "node"),
                agentApi("PUT", "/v1/declaration", declaration("node", "\"novox\""), "novox"),
                agentApi("PUT", "/v1/declaration", declaration("components", "{}"), "components"),
                agentApi("PUT", "/v1/declaration", declaration("address", "\"../etc\""), "address"),
                agentApi("PUT", "/v1/declaration", declaration("colour", "\"red\""), "colour"),
                agentApi("POST", "/v1/plan", "null", "declaration"),
                agentApi("POST", "/v1/plan", declaration("generation", "true"), "generation"),
                agentApi("GET", "/v1/declarations/abc", null, "'abc'"),
                agentApi("GET", "/v1/declarations/99999999999999999999", null, "99999999999999999999"),
                agentApi("GET", "/v1/declarations/-5", null, "-5"),
                agentApi("GET", "/v1/declarations/%2E%2E", null, "'.' or '..'"),
                agentApi("DELETE", "/v1/status", null, "DELETE"),
                agentApi("POST", "/v1/status", "{}", "POST"),
                agentApi("GET", "/v1/declaration", null, "GET"),
                agentApi("GET", "/v1/nope", null, "/v1/nope"),
                agentApi("GET", "/v1/mesh/nodes", null, "host agent"));
    }

    Stream<Bad> cliCases() {
        String empty = scratch.resolve("empty").toString();
        int closed = PackagedMesh.freePort();
        return Stream.of(
                cliEnv(Map.of("MESH_CONTROLLER", "ftp://x"), List.of("node", "list"), "MESH_CONTROLLER", "'ftp://x'"),
                cliEnv(Map.of("MESH_CONTROLLER", ""), List.of("node", "list"), "MESH_CONTROLLER"),
                cliEnv(Map.of("MESH_CONTROLLER", "http://"), List.of("node", "list"), "MESH_CONTROLLER", "'http://'"),
                cliEnv(Map.of("MESH_CONTROLLER", "http://127.0.0.1:port"), List.of("status"), "MESH_CONTROLLER"),
                cliEnv(Map.of("MESH_CONTROLLER", "not a url"), List.of("roster"), "MESH_CONTROLLER", "'not a url'"),
                cliEnv(Map.of("MESH_CONTROLLER", "127.0.0.1:7700"), List.of("roster"), "MESH_CONTROLLER"),
                cliEnv(Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + closed), List.of("node", "list"),
                        "cannot reach the controller", "connection refused"),
                cliEnv(Map.of("MESH_TOKEN", "tok\n"), List.of("node", "list"), "MESH_TOKEN", "line break"),
                cliEnv(Map.of("MESH_TOKEN", ""), List.of("node", "list"), "MESH_TOKEN"),
                cliEnv(Map.of("MESH_TOKEN", "a b"), List.of("node", "list"), "MESH_TOKEN"),
                cli(List.of("frobnicate"), "frobnicate"),
                cli(List.of("status", "--frob"), "--frob"),
                cli(List.of("-o", "yaml", "status"), "yaml"),
                cli(List.of("status", "-o", "yaml"), "yaml"),
                cli(List.of("push", "--wait-timeout", "5"), "--wait-timeout needs --wait"),
                cli(List.of("push", "--wait", "--dry-run"), "--dry-run"),
                cli(List.of("push", "--wait", "--wait-timeout", "abc"), "'abc'"),
                cli(List.of("push", "--wait", "--wait-timeout", "0"), "--wait-timeout"),
                cli(List.of("push", "--wait", "--wait-timeout", "99999999999999999999"), "99999999999999999999"),
                cli(List.of("push", "--wait", "--timeout", "0"), "--timeout: must be from 1s to 24h, got 0s"),
                cli(List.of("upgrade", "--timeout", "0"), "--timeout: must be from 1s to 24h, got 0s"),
                cli(List.of("logs", "web", "--tail", "5m"), "--tail: '5m' is not a whole number"),
                cli(List.of("host", "logs", "web.serve", "-n", "ten"), "--tail: 'ten' is not a whole number"),
                cli(List.of("push", "--dry-run=maybe"), "--dry-run: expected yes or no, got 'maybe'"),
                cliEnv(Map.of("MESH_CONTROLLER", "https://127.0.0.1:9", "MESH_CA", "/nonexistent/ca.pem"), List.of("node", "list"),
                        "MESH_CA: cannot read a PEM certificate from /nonexistent/ca.pem (no such file)"),
                cli(List.of("assign", "web", "novox"), "mesh assign novox web"),
                cli(List.of("unassign", "web", "novox"), "mesh unassign novox web"),
                cli(List.of("assign", "novox"), "MODULE"),
                cli(List.of("assign", "a", "b", "c"), "'c'"),
                cli(List.of("node", "add", "..", "--address", "10.77.0.20"), "'..'"),
                cli(List.of("node", "add", "x", "--address", "../../etc"), "'../../etc'"),
                cli(List.of("node", "add", "x", "--address", "10.77.0.11"), "novox"),
                cli(List.of("node", "add", "x", "--address", "10.77.0.20", "--agent", "http://10.77.0.12:7701"), "ace"),
                cli(List.of("node", "set", "ace"), "--address"),
                cli(List.of("node", "set", "ace", "--address", "10.77.0.11"), "novox"),
                cli(List.of("node", "set", "..", "--address", "10.77.0.50"), "'..'"),
                cli(List.of("node", "set", "ace", "--agent", "ftp://x"), "'ftp://x'"),
                cli(List.of("node", "token", "ace"), "--rotate"),
                cli(List.of("node", "token", "nope", "--rotate"), "unknown node nope"),
                cli(List.of("catalogue", "show", "nope"), "unknown module nope"),
                cli(List.of("catalogue", "show", ".."), "'..'"),
                cli(List.of("unassign", "novox", "."), "'.'"),
                cli(List.of("catalogue", "remove", "web"), "module web", "novox"),
                cli(List.of("catalogue", "add", "/nonexistent/dir"), "/nonexistent/dir"),
                cli(List.of("catalogue", "add", empty), "no *.yaml"),
                cli(List.of("completion", "fish"), "fish"),
                cli(List.of("status", "--refresh=maybe"), "maybe"),
                cli(List.of("roster", "extra"), "extra"),
                cli(List.of("node", "public-domain", "ace", "../x"), "'../x'"),
                cli(List.of("push", "../etc"), "unknown node ../etc"),
                cli(List.of("-o", "json", "frobnicate"), "frobnicate"),
                // the same, over the CLI
                cli(List.of("catalogue", "add", bigManifest()), "is too large", "at most 10.0 MB", "nothing was sent"),
                cli(List.of("catalogue", "add", unpublishedRoute()), "route.yaml:6:33: routes.www.port: module r: route www goes to"
                        + " port 80 of r.web, which publishes no port; add ports: [80] to r.web"),
                cli(List.of("audit", "--since", "+1000000000-01-01T00:00:00Z"), "since", "9999-12-31T23:59:59Z"),
                cli(List.of("bundle", "push", plainFile(), "tool:1", "--registry", "http://127.0.0.1:" + closed),
                        plainFile(), "is not executable"),
                cliEnv(Map.of("MESH_HOST_ENGINE", "docker.sock", "MESH_HOST_STATE_DIR", scratch.resolve("apply").toString()),
                        List.of("host", "apply", scratch.resolve("empty.json").toString()), "MESH_HOST_ENGINE", "'docker.sock'",
                        "unix:///", "tcp://host:port"),
                cli(List.of("host", "apply", scratch.resolve("nowhere.json").toString()), "nowhere.json: no such file"));
    }

    /** A manifest of 12 MB (a comment pads it), written once into the scratch folder. */
    String bigManifest() {
        Path file = scratch.resolve("big.yaml");
        try {
            if (!Files.exists(file)) {
                Files.writeString(file, "module: big\ncomponents:\n  big.web:\n    image: x\n# " + "x".repeat(12 * 1024 * 1024) + "\n");
                Files.writeString(scratch.resolve("empty.json"), "{\"node\":\"ace\",\"generation\":1,\"components\":[]}");
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return file.toString();
    }

    /**
     * A folder of two manifests, a good new module and one whose route goes to a component that
     * publishes no port: the add is refused whole, so not even the good one is stored.
     */
    String unpublishedRoute() {
        Path folder = scratch.resolve("unpublished-route");
        try {
            if (!Files.exists(folder)) {
                Files.createDirectories(folder);
                Files.writeString(folder.resolve("good.yaml"), "module: good\ncomponents:\n  good.web:\n    image: x\n");
                Files.writeString(folder.resolve("route.yaml"),
                        "module: r\ncomponents:\n  r.web:\n    image: x\nroutes:\n  www: {component: r.web, port: 80}\n");
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return folder.toString();
    }

    /** A file without the execute bit, which can never be a bundle's entrypoint. */
    String plainFile() {
        Path file = scratch.resolve("tool");
        try {
            if (!Files.exists(file)) {
                Files.writeString(file, "#!/bin/sh\necho hi\n");
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return file.toString();
    }

    /**
     * A take whose target's agent does not answer: the take's preflight cannot ask it, which is a 503
     * naming the node (it was an unmapped 500 the CLI read as "is MESH_CONTROLLER a mesh controller?").
     * Over the API and through {@code mesh take --dry-run}; the store is left as it was.
     */
    @Test
    void aTakeToANodeWhoseAgentIsDownNamesTheNode() throws Exception {
        int closed = PackagedMesh.freePort();
        var added = post("/v1/mesh/nodes", node("g14", "10.77.0.99", "http://127.0.0.1:" + closed)).send(token);
        assertEquals(201, added.statusCode(), added.asString());
        String before = StoreSnapshot.of(dataSource);
        HttpResponse<String> r = call(controllerUrl, "POST", "/v1/mesh/takes",
                "{\"node\":\"g14\",\"module\":\"web\",\"dryRun\":true}", token);
        assertEquals(503, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("{\"error\":\"node g14's agent"), r.body());
        PackagedMesh.Result run = PackagedMesh.run(Map.of("MESH_CONTROLLER", controllerUrl, "MESH_TOKEN", token),
                "take", "--dry-run", "g14", "web");
        assertEquals(1, run.exit(), run.toString());
        assertTrue(run.err().contains("node g14's agent") && !run.err().contains("MESH_CONTROLLER"), run.toString());
        for (String word : FORBIDDEN) {
            assertFalse(r.body().contains(word) || run.err().contains(word), word + ": " + r.body() + "\n" + run);
        }
        assertEquals(before, StoreSnapshot.of(dataSource), "the store changed");
    }

    Stream<Bad> allCases() {
        return Stream.concat(Stream.concat(controllerCases(), agentCases()), cliCases());
    }

    @Test
    void thereAreAtLeastAHundredCases() {
        long count = allCases().count();
        assertTrue(count >= 100, "only " + count + " bad inputs");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allCases")
    void everyBadInputIsNamedShowsNoInternalsAndChangesNothing(Bad c) throws Exception {
        String before = StoreSnapshot.of(dataSource);
        String recordsBefore = agentCall("GET", "/v1/declarations", null, AGENT_TOKEN).body();
        List<String> said = new ArrayList<>();
        String failed;
        String shown;
        switch (c.door()) {
            case CONTROLLER -> {
                HttpResponse<String> r = call(controllerUrl, c.method(), c.path(), c.body(), token);
                failed = r.statusCode() >= 400 ? "" : "status " + r.statusCode() + " is not a refusal";
                said.add(r.body());
                shown = c + "\n→ " + r.statusCode() + " " + r.body();
            }
            case AGENT -> {
                HttpResponse<String> r = agentCall(c.method(), c.path(), c.body(),
                        c.path().startsWith("/v1/mesh/") ? token : AGENT_TOKEN);
                failed = r.statusCode() >= 400 ? "" : "status " + r.statusCode() + " is not a refusal";
                said.add(r.body());
                shown = c + "\n→ " + r.statusCode() + " " + r.body();
            }
            default -> {
                Map<String, String> env = new HashMap<>(Map.of("MESH_CONTROLLER", controllerUrl, "MESH_TOKEN", token));
                env.putAll(c.env());
                PackagedMesh.Result run = PackagedMesh.run(env, c.args().toArray(String[]::new));
                failed = run.exit() != 0 ? "" : "exit 0 is not a refusal";
                said.add(run.out());
                said.add(run.err());
                shown = run.toString();
            }
        }
        String all = String.join("\n", said);
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertEquals("", failed, shown));
        for (String word : FORBIDDEN) {
            checks.add(() -> assertFalse(all.contains(word), "shows '" + word.replace("\t", "\\t") + "': " + shown));
        }
        for (String name : c.names()) {
            checks.add(() -> assertTrue(all.contains(name), "should name '" + name + "': " + shown));
        }
        String after = StoreSnapshot.of(dataSource);
        checks.add(() -> assertEquals(before, after, "the store changed: " + shown + "\n" + StoreSnapshot.diff(before, after)));
        String recordsAfter = agentCall("GET", "/v1/declarations", null, AGENT_TOKEN).body();
        checks.add(() -> assertEquals(recordsBefore, recordsAfter, "the agent's records changed: " + shown));
        assertAll(c.toString(), checks);
    }

    HttpResponse<String> agentCall(String method, String path, String body, String bearer) {
        try {
            return call(agentUrl, method, path, body, bearer);
        } catch (IOException e) {
            return new Unanswered(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    HttpResponse<String> call(String base, String method, String path, String body, String bearer)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + bearer)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Unanswered stands for a call that got no answer (the agent still starting), so polling can go on. */
    record Unanswered(String why) implements HttpResponse<String> {
        public int statusCode() {
            return 0;
        }

        public HttpRequest request() {
            return null;
        }

        public java.util.Optional<HttpResponse<String>> previousResponse() {
            return java.util.Optional.empty();
        }

        public java.net.http.HttpHeaders headers() {
            return java.net.http.HttpHeaders.of(Map.of(), (a, b) -> true);
        }

        public String body() {
            return why;
        }

        public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
            return java.util.Optional.empty();
        }

        public URI uri() {
            return null;
        }

        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }
}
