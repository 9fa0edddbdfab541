package mesh.controller;

import static mesh.controller.ApiCall.delete;
import static mesh.controller.ApiCall.files;
import static mesh.controller.ApiCall.node;
import static mesh.controller.ApiCall.post;
import static mesh.controller.ApiCall.put;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mesh.testbed.PackagedMesh;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ControllerInputIT is the bad-input corpus of invariant 10 (docs/design.md): malformed
 * manifests and requests, each refused with a 4xx (API) or exit 1 (CLI) and a message that names
 * the problem, and the store, every row of every table, unchanged after each.
 *
 * <p>Before every case the store is wiped and seeded through the API with a known mesh: nodes novox
 * (10.77.0.11, public domain novox.be) and ace (10.77.0.12); modules web (route www), db, and app
 * (binds db.internal); web assigned to novox. No agent runs: every push here must fail before it
 * sends anything (an unknown node, or a plan that fails).
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ControllerInputIT {

    static final String OWN_TOKEN = "input-it-" + System.nanoTime();

    static final String WEB = """
            module: web
            components:
              web.server:
                image: mesh-test/busybox:1
                args: [httpd, -f, -p, "8080"]
                volumes: {site: /var/www}
                ports: [8080]
                health: {http: /, port: 8080}
                stop-timeout: 5s
            routes:
              www: {component: web.server, port: 8080}
            """;
    static final String DB = """
            module: db
            components:
              db.server:
                image: mesh-test/postgres:15
                env: {POSTGRES_PASSWORD: mesh}
                volumes: {pgdata: /var/lib/postgresql/data}
                ports: [5432]
                health: {command: [pg_isready, -U, postgres]}
                stop-timeout: 60s
            """;
    static final String APP = """
            module: app
            components:
              app.server:
                image: mesh-test/busybox:1
                env: {DATABASE_HOST: "db.internal:5432"}
                binds: [db.internal]
                after: [app.cache]
              app.cache:
                image: mesh-test/busybox:1
            """;
    /** A good module of its own, to show that a good file is not stored beside a bad one. */
    static final String GOOD = """
            module: good
            components:
              good.web:
                image: mesh-test/busybox:1
            """;

    @Inject
    MeshController controller;

    @Inject
    AgroalDataSource dataSource;

    @TestHTTPResource("/")
    URL root;

    String token;
    /** The CLI's environment: this controller and its token. */
    Map<String, String> cli;
    final List<Path> scratch = new ArrayList<>();

    @BeforeAll
    void startTheController() {
        // the app may be shared with other @QuarkusTest classes: start the controller only if nobody has
        if (!controller.serving()) {
            String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
            controller.start(new ControllerSettings(url, OWN_TOKEN, ControllerSettings.DEFAULT_PUSH_BUDGET, 0));
        }
        token = controller.settings().token();
        cli = Map.of("MESH_CONTROLLER", root.toString().replaceAll("/+$", ""), "MESH_TOKEN", token);
    }

    @AfterAll
    void cleanUp() throws IOException {
        for (Path dir : scratch) {
            PackagedMesh.deleteTree(dir);
        }
        StoreSnapshot.wipe(dataSource);
    }

    @BeforeEach
    void seed() {
        StoreSnapshot.wipe(dataSource);
        for (ApiCall call : List.of(
                post("/v1/mesh/nodes", node("novox", "10.77.0.11")),
                post("/v1/mesh/nodes", node("ace", "10.77.0.12")),
                put("/v1/mesh/nodes/novox/public-domain", "{\"domain\":\"novox.be\"}"),
                post("/v1/mesh/catalogue", files("web.yaml", WEB, "db.yaml", DB, "app.yaml", APP)),
                put("/v1/mesh/nodes/novox/modules/web"))) {
            accepted(call);
        }
        assertAll("the seeded store",
                () -> assertEquals(2, StoreSnapshot.count(dataSource, "nodes")),
                () -> assertEquals(2, StoreSnapshot.count(dataSource, "node_pushes")),
                () -> assertEquals(3, StoreSnapshot.count(dataSource, "modules")),
                () -> assertEquals(1, StoreSnapshot.count(dataSource, "placements")),
                () -> assertEquals(0, StoreSnapshot.count(dataSource, "roster")));
    }

    void accepted(ApiCall call) {
        Response response = call.send(token);
        assertEquals(2, response.statusCode() / 100, "setting up: " + call + " → " + response.statusCode() + " "
                + response.asString());
    }

    // ------------------------------------------------------------------------------------------
    // the API

    /** Case is one bad request: what to set up first, the request, and how it must be refused. */
    record Case(String name, List<ApiCall> setup, ApiCall call, int status, List<String> names) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** CaseBuilder reads as the case does: refuse(name).after(setup).when(call).with(status, names…). */
    record CaseBuilder(String name, List<ApiCall> setup, ApiCall call) {
        CaseBuilder after(ApiCall step) {
            List<ApiCall> steps = new ArrayList<>(setup);
            steps.add(step);
            return new CaseBuilder(name, steps, call);
        }

        CaseBuilder when(ApiCall request) {
            return new CaseBuilder(name, setup, request);
        }

        Case with(int status, String... names) {
            return new Case(name, setup, call, status, List.of(names));
        }
    }

    static CaseBuilder refuse(String name) {
        return new CaseBuilder(name, List.of(), null);
    }

    static CaseBuilder manifest(String name, String yaml) {
        return refuse("manifest: " + name).when(post("/v1/mesh/catalogue", files("bad.yaml", yaml)));
    }

    static Stream<Case> apiCases() {
        String web = "module: a\ncomponents:\n  a.web:\n    image: mesh-test/busybox:1\n";
        return Stream.of(
                // manifests: each file is checked in full before anything is stored
                manifest("not YAML", "module: [unclosed\ncomponents: {\n")
                        .with(400, "bad.yaml:2:11: not YAML: expected ',' or ']'"),
                manifest("a list instead of a mapping", "- module: a\n- components: {}\n")
                        .with(400, "bad.yaml:1:1: a manifest is a mapping with 'module' and 'components', got a list"),
                manifest("an empty file", "")
                        .with(400, "bad.yaml:1:1: a manifest is a mapping with 'module' and 'components', got an empty file"),
                manifest("a key given twice", "module: a\nmodule: b\ncomponents:\n  a.web:\n    image: x\n")
                        .with(400, "bad.yaml:2:1: module: given twice (first on line 1)"),
                manifest("no module", "components:\n  a.web:\n    image: mesh-test/busybox:1\n")
                        .with(400, "bad.yaml:1:1: module: is required"),
                manifest("a bad module name", web.replace("module: a", "module: Bad Name!"))
                        .with(400, "bad.yaml:1:9: module: not a valid name: \"Bad Name!\" holds ' ', '!', which a DNS name cannot"),
                manifest("no components", "module: a\n")
                        .with(400, "bad.yaml:1:1: components: a module needs at least one component"),
                manifest("an empty components mapping", "module: a\ncomponents: {}\n")
                        .with(400, "bad.yaml:2:1: components: a module needs at least one component"),
                manifest("components as a list", "module: a\ncomponents: [a.web]\n")
                        .with(400, "bad.yaml:2:13: components: a mapping of component name to component, got a list"),
                manifest("an empty component", "module: a\ncomponents:\n  a.web:\n")
                        .with(400, "bad.yaml:3:3: components.a.web: is empty"),
                manifest("a bad component name", web.replace("a.web:", "\"a web\":"))
                        .with(400, "bad.yaml:3:3: components.a web: not a valid name: \"a web\" holds ' '"),
                manifest("a component without image", "module: a\ncomponents:\n  a.web:\n    ports: [80]\n")
                        .with(400, "bad.yaml:3:3: components.a.web.image: is required"),
                manifest("an image with a space", web.replace("mesh-test/busybox:1", "busy box"))
                        .with(400, "bad.yaml:4:12: components.a.web.image: not an image reference: \"busy box\""),
                manifest("a component with both image and bundle", web + "    bundle: mesh\n")
                        .with(400, "bad.yaml:5:5: components.a.web.bundle: give exactly one of image (a container) or bundle (a process), not both"),
                manifest("an unknown field at top level", web + "colour: red\n")
                        .with(400, "bad.yaml:5:1: colour: unknown field"),
                manifest("an unknown field in a component", "module: a\ncomponents:\n  a.web:\n    imgae: busybox\n")
                        .with(400, "bad.yaml:4:5: components.a.web.imgae: unknown field, did you mean 'image'?"),
                manifest("ports: \"80\" (a string, not a list)", web + "    ports: \"80\"\n")
                        .with(400, "bad.yaml:5:12: components.a.web.ports: a list of port numbers, got \"80\""),
                manifest("env: [a] (a list, not a mapping)", web + "    env: [a]\n")
                        .with(400, "bad.yaml:5:10: components.a.web.env: a mapping of variable name to value, got a list"),
                manifest("stop-timeout: soon", web + "    stop-timeout: soon\n")
                        .with(400, "bad.yaml:5:19: components.a.web.stop-timeout: must be a duration like 30s, 5m, 1h or 1h30m (a bare number is seconds), got \"soon\""),
                manifest("stop-timeout: 90m (over the hour allowed)", web + "    stop-timeout: 90m\n")
                        .with(400, "bad.yaml:5:19: components.a.web.stop-timeout: must be at most 60m, got 90m"),
                manifest("after naming a missing component", web + "    after: [a.db]\n")
                        .with(400, "bad.yaml:5:12: components.a.web.after: \"a.db\" is not a component of this module"),
                manifest("after naming itself", web + "    after: [a.web]\n")
                        .with(400, "bad.yaml:5:12: components.a.web.after: names itself"),
                manifest("an after cycle", web + "    after: [a.db]\n  a.db:\n    image: mesh-test/busybox:1\n    after: [a.web]\n")
                        .with(400, "bad.yaml:5:12: components.a.web.after: components wait on each other in a cycle: a.web -> a.db -> a.web"),
                manifest("a route to a missing component", web + "routes:\n  www: {component: a.nope, port: 80}\n")
                        .with(400, "bad.yaml:6:20: routes.www.component: must name a component of this module, got \"a.nope\""),
                manifest("a route without port", web + "routes:\n  www: {component: a.web}\n")
                        .with(400, "bad.yaml:6:3: routes.www.port: is required: the component's port (1-65535)"),
                manifest("a route name with a dot", web + "routes:\n  w.w: {component: a.web, port: 80}\n")
                        .with(400, "bad.yaml:6:3: routes.w.w: must be one DNS label"),
                manifest("routes as a list", web + "routes: [www]\n")
                        .with(400, "bad.yaml:5:9: routes: a mapping of route name to {component, port}, got a list"),
                manifest("a port out of range", web + "    ports: [70000]\n")
                        .with(400, "bad.yaml:5:13: components.a.web.ports[0]: must be 1-65535, got 70000"),
                manifest("a relative volume path", web + "    volumes: {data: data}\n")
                        .with(400, "bad.yaml:5:21: components.a.web.volumes.data: must be an absolute path"),
                manifest("two components publishing one port",
                        web + "    ports: [80]\n  a.api:\n    image: mesh-test/busybox:1\n    ports: [80]\n")
                        .with(400, "bad.yaml:8:12: components.a.api.ports: port 80 is already published by a.web"),
                manifest("a bind that is not a host name", web + "    binds: [\"not a host\"]\n")
                        .with(400, "bad.yaml:5:13: components.a.web.binds[0]: not a host name: \"not a host\" holds ' '"),
                manifest("health with both http and command", web + "    health: {http: /, port: 80, command: [curl, -f, x]}\n")
                        .with(400, "bad.yaml:5:13: components.a.web.health: give exactly one of"),
                manifest("an http health check without port", web + "    health: {http: /healthz}\n")
                        .with(400, "bad.yaml:5:14: components.a.web.health.port: an HTTP health check needs"),
                manifest("a port written as a string", web + "    ports: [\"8080\"]\n")
                        .with(400, "bad.yaml:5:13: components.a.web.ports[0]: a number, got \"8080\""),
                manifest("a null list item", web + "    args: [sh, ~]\n")
                        .with(400, "bad.yaml:5:16: components.a.web.args[1]: a string, got nothing"),
                manifest("bad indentation", web + "   ports: [80]\n")
                        .with(400, "bad.yaml:5:4: not YAML: expected <block end>", "check the indentation"),
                manifest("every problem of a file at once", web.replace("module: a", "module: my_app") + "    stop-timeout: 5 s\n")
                        .with(400, "bad.yaml:1:9: module: not a valid name: \"my_app\" has '_'",
                                "bad.yaml:5:19: components.a.web.stop-timeout: must be a duration like 30s, 5m, 1h or 1h30m (a bare number is seconds), got \"5 s\""),
                manifest("an alias", "module: a\nx-img: &img busybox:1\ncomponents:\n  a.web:\n    image: *img\n")
                        .with(400, "bad.yaml:5:12: an alias (*img) is not allowed in a manifest"),
                manifest("a second document", web + "---\nmodule: b\ncomponents:\n  b.web: {image: busybox}\n")
                        .with(400, "bad.yaml:5:1: a second YAML document"),
                manifest("an image in upper case", web.replace("mesh-test/busybox:1", "mesh-test/BusyBox:1"))
                        .with(400, "bad.yaml:4:12: components.a.web.image: not an image reference: \"mesh-test/BusyBox:1\"; Docker refuses upper-case"),
                manifest("a volume path that climbs", web + "    volumes: {data: /data/../etc}\n")
                        .with(400, "bad.yaml:5:21: components.a.web.volumes.data: must not climb with '..'"),
                refuse("manifest: two files defining one module (nothing stored, not even the first)")
                        .when(post("/v1/mesh/catalogue", files("one.yaml", GOOD, "two.yaml", GOOD)))
                        .with(400, "two.yaml:1:9: module good is also defined in one.yaml:1:9"),
                refuse("manifest: two modules with a component of one name (nothing stored)")
                        .when(post("/v1/mesh/catalogue", files("good.yaml", GOOD, "other.yaml",
                                "module: other\ncomponents:\n  good.web:\n    image: mesh-test/busybox:1\n")))
                        .with(400, "other.yaml:3:3: component good.web of module other is also a component of module good in good.yaml:3:3"),
                refuse("manifest: one good and one bad file (nothing stored)")
                        .when(post("/v1/mesh/catalogue", files("good.yaml", GOOD, "bad.yaml",
                                "module: a\ncomponents:\n  a.web:\n    ports: [80]\n")))
                        .with(400, "bad.yaml:3:3: components.a.web.image: is required"),
                refuse("manifest: a broken update of a stored module (the stored one stays)")
                        .when(post("/v1/mesh/catalogue", files("web.yaml", WEB.replace("component: web.server", "component: web.gone"))))
                        .with(400, "web.yaml:11:20: routes.www.component: must name a component of this module, got \"web.gone\""),
                refuse("catalogue: no manifest at all")
                        .when(post("/v1/mesh/catalogue", "[]"))
                        .with(400, "no manifest given"),
                refuse("catalogue: a null entry")
                        .when(post("/v1/mesh/catalogue", "[null]"))
                        .with(400, "each manifest needs \"file\" and \"yaml\""),
                refuse("catalogue: an unknown field in a file entry")
                        .when(post("/v1/mesh/catalogue", "[{\"file\":\"a.yaml\",\"yaml\":\"module: a\",\"extra\":1}]"))
                        .with(400, "unknown field 'extra'"),

                // nodes
                refuse("node: a bad name").when(post("/v1/mesh/nodes", node("Ace!", "10.77.0.13")))
                        .with(400, "node name: lower-case letters, digits and '-' (a DNS label: 1-63 characters, not starting or ending with '-'), got 'Ace!'"),
                refuse("node: a bad address").when(post("/v1/mesh/nodes", node("shanks", "10.0.0.300")))
                        .with(400, "address: an IPv4 address on the mesh, got '10.0.0.300'"),
                refuse("node: no address").when(post("/v1/mesh/nodes", "{\"name\":\"shanks\"}"))
                        .with(400, "address: an IPv4 address"),
                refuse("node: a bad agent URL").when(post("/v1/mesh/nodes", node("shanks", "10.77.0.13", "ftp://x")))
                        .with(400, "agent: an http(s) URL", "'ftp://x'"),
                refuse("node: a loopback address").when(post("/v1/mesh/nodes", node("shanks", "127.0.0.1")))
                        .with(400, "address: 127.0.0.1 is a loopback address: inside a container it is the container itself"),
                refuse("node: a multicast address").when(post("/v1/mesh/nodes", node("shanks", "224.0.0.1")))
                        .with(400, "address: 224.0.0.1 is a multicast address"),
                refuse("node: an agent URL with port 99999")
                        .when(post("/v1/mesh/nodes", node("shanks", "10.77.0.13", "http://10.77.0.13:99999")))
                        .with(400, "agent: the port must be 1-65535, got 99999"),
                refuse("node: a name with a trailing hyphen").when(post("/v1/mesh/nodes", node("shanks-", "10.77.0.13")))
                        .with(400, "node name: lower-case letters, digits and '-'", "got 'shanks-'"),
                refuse("node: a public domain longer than DNS allows")
                        .when(put("/v1/mesh/nodes/ace/public-domain", "{\"domain\":\"" + "a".repeat(63) + "." + "b".repeat(63)
                                + "." + "c".repeat(63) + "." + "d".repeat(63) + ".be\"}"))
                        .with(400, "public domain: not a domain name"),
                refuse("node: a duplicate").when(post("/v1/mesh/nodes", node("novox", "10.77.0.99")))
                        .with(409, "node novox already exists"),
                refuse("node: no body").when(post("/v1/mesh/nodes", null))
                        .with(400, "the request needs a JSON body"),
                refuse("node: a public domain for an unknown node")
                        .when(put("/v1/mesh/nodes/nope/public-domain", "{\"domain\":\"nope.be\"}"))
                        .with(404, "unknown node nope"),
                refuse("node: a public domain that is not a domain")
                        .when(put("/v1/mesh/nodes/ace/public-domain", "{\"domain\":\"not a domain\"}"))
                        .with(400, "not a domain name: 'not a domain'"),
                refuse("node: a public domain without body").when(put("/v1/mesh/nodes/ace/public-domain", null))
                        .with(400, "the request needs a JSON body"),
                refuse("node: remove an unknown node").when(delete("/v1/mesh/nodes/nope"))
                        .with(404, "unknown node nope"),
                refuse("node: remove a node that has a module assigned").when(delete("/v1/mesh/nodes/novox"))
                        .with(409, "node novox still has modules assigned or running: web"),

                // malformed request bodies
                refuse("json: a truncated node body").when(post("/v1/mesh/nodes", "{\"name\":"))
                        .with(400, "malformed JSON"),
                refuse("json: an unknown field in a node body")
                        .when(post("/v1/mesh/nodes", "{\"name\":\"shanks\",\"address\":\"10.77.0.13\",\"colour\":\"red\"}"))
                        .with(400, "unknown field 'colour'"),
                refuse("json: a node name that is a list")
                        .when(post("/v1/mesh/nodes", "{\"name\":[\"shanks\"],\"address\":\"10.77.0.13\"}"))
                        .with(400, "field 'name'"),
                refuse("json: a push with dryRun \"yes\"").when(post("/v1/mesh/push", "{\"dryRun\":\"yes\"}"))
                        .with(400, "field 'dryRun'"),
                // bodies are read as JSON whatever the content type says (as the host agent does), so a
                // broken one sent as text/plain is still named, not answered with a bare 415
                refuse("json: a broken node body sent as text/plain")
                        .when(post("/v1/mesh/nodes", "{\"name\":").contentType("text/plain"))
                        .with(400, "malformed JSON"),
                refuse("json: a node name that is a number")
                        .when(post("/v1/mesh/nodes", "{\"name\":5,\"address\":\"10.77.0.13\"}"))
                        .with(400, "field 'name'"),

                // placement
                refuse("placement: assign to an unknown node").when(put("/v1/mesh/nodes/nope/modules/db"))
                        .with(404, "unknown node nope"),
                refuse("placement: assign an unknown module").when(put("/v1/mesh/nodes/ace/modules/nope"))
                        .with(404, "unknown module nope"),
                refuse("placement: unassign a module assigned elsewhere").when(delete("/v1/mesh/nodes/ace/modules/web"))
                        .with(409, "module web is not assigned to node ace (it is assigned to novox)"),
                refuse("placement: unassign a module assigned nowhere").when(delete("/v1/mesh/nodes/ace/modules/db"))
                        .with(409, "module db is not assigned to node ace (it is assigned nowhere)"),
                refuse("placement: unassign an unknown module").when(delete("/v1/mesh/nodes/ace/modules/nope"))
                        .with(404, "unknown module nope"),

                // push: refused before anything is recorded or sent
                refuse("push: an unknown node").when(post("/v1/mesh/push", "{\"nodes\":[\"nope\"]}"))
                        .with(404, "unknown node nope"),
                refuse("push: two unknown nodes").when(post("/v1/mesh/push", "{\"nodes\":[\"ace\",\"nope\",\"nada\"]}"))
                        .with(404, "unknown nodes nope, nada"),
                refuse("push: a bound name nobody serves (after assigning app to ace)")
                        .after(put("/v1/mesh/nodes/ace/modules/app"))
                        .when(post("/v1/mesh/push", "{}"))
                        .with(409, "the plan failed, nothing was sent",
                                "node ace: component app.server (app) binds 'db.internal', which no node serves",
                                "module db would serve it"),
                refuse("push --dry-run: a bound name nobody serves")
                        .after(put("/v1/mesh/nodes/ace/modules/app"))
                        .when(post("/v1/mesh/push", "{\"dryRun\":true}"))
                        .with(409, "node ace: component app.server (app) binds 'db.internal'"),
                refuse("push: two modules claiming one route")
                        .after(post("/v1/mesh/catalogue", files("web2.yaml", WEB.replace("web", "web2"))))
                        .after(put("/v1/mesh/nodes/novox/modules/web2"))
                        .when(post("/v1/mesh/push", "{\"nodes\":[\"novox\"]}"))
                        .with(409, "route www.novox.be is claimed by module web and by module web2"),

                // the token
                refuse("auth: no token").when(post("/v1/mesh/nodes", node("shanks", "10.77.0.13")).noToken())
                        .with(401, "missing bearer token"),
                refuse("auth: a wrong token").when(post("/v1/mesh/nodes", node("shanks", "10.77.0.13"))
                                .authorization("Bearer not-the-token"))
                        .with(401, "wrong bearer token"),
                refuse("auth: the token without 'Bearer'").when(post("/v1/mesh/catalogue", files("good.yaml", GOOD))
                                .tokenWithoutScheme())
                        .with(401, "wrong bearer token"),
                refuse("auth: no token for a push").when(post("/v1/mesh/push", "{}").noToken())
                        .with(401, "missing bearer token"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("apiCases")
    @Order(1)
    void everyBadRequestIsRefusedByNameAndChangesNothing(Case c) {
        c.setup().forEach(this::accepted);
        String before = StoreSnapshot.of(dataSource);

        Response response = c.call().send(token);

        String said = c.call() + "\n→ " + response.statusCode() + " " + response.contentType() + " " + response.asString();
        String error = errorOf(response);
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertEquals(c.status(), response.statusCode(), "status of " + said));
        checks.add(() -> assertTrue(response.contentType() != null && response.contentType().startsWith("application/json"),
                "a refusal answers JSON {\"error\", \"problems\"}: " + said));
        checks.add(() -> assertTrue(error != null && !error.isBlank(), "a refusal says why, in 'error': " + said));
        for (String name : c.names()) {
            checks.add(() -> assertTrue(error != null && error.contains(name), "the message should name '" + name + "': " + said));
        }
        checks.add(() -> assertFalse(error != null && error.contains("(line -1, column -1)"),
                "a message without a position should not show one: " + said));
        checks.add(unchanged(before, "a refused " + said));
        assertAll(c.name(), checks);
    }

    /** Every row of every table as it was: a refusal changes nothing (the message lists what did change). */
    Executable unchanged(String before, String after) {
        String now = StoreSnapshot.of(dataSource);
        return () -> assertEquals(before, now, "the store changed after " + after + "\n"
                + StoreSnapshot.diff(before, now) + "(full snapshots follow)");
    }

    static String errorOf(Response response) {
        try {
            return JsonPath.from(response.asString()).getString("error");
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    /** The control: the snapshot does see a change, so "unchanged" above means something. */
    @Test
    @Order(2)
    void theSnapshotSeesAnAcceptedChange() {
        String before = StoreSnapshot.of(dataSource);
        accepted(put("/v1/mesh/nodes/ace/public-domain", "{\"domain\":\"zurag.be\"}"));
        String afterDomain = StoreSnapshot.of(dataSource);
        assertNotEquals(before, afterDomain);
        accepted(post("/v1/mesh/catalogue", files("good.yaml", GOOD)));
        assertNotEquals(afterDomain, StoreSnapshot.of(dataSource));
    }

    /**
     * A node that holds a copy of a module restored elsewhere while it was down, not fenced yet, is kept: removed, it
     * would never be fenced and would run the module again if it came back with its disk. Removed only when the operator
     * says it is gone for good ({@code --forget-lost}), which forgets its lost copies; a forget-lost that is no boolean is
     * refused. Each refusal changes nothing.
     */
    @Test
    @Order(3)
    void aNodeHoldingALostCopyIsKeptUntilSaidGoneForGood() throws Throwable {
        try {
            try (java.sql.Connection c = dataSource.getConnection(); java.sql.Statement s = c.createStatement()) {
                // written as a restore's lose step writes it, at the store's newest controller epoch (its fence trigger)
                s.execute("select set_config('mesh.epoch', coalesce((select epoch::text from controller_epoch), '0'), false)");
                mesh.store.BackupRecords.lose(c, "db", "ace", 42, List.of(new mesh.model.BackupVolume("pgdata", "container",
                        "sha256:" + "a".repeat(64), 10L, 1L)));
            }
            String before = StoreSnapshot.of(dataSource);
            Response kept = delete("/v1/mesh/nodes/ace").send(token);
            assertEquals(409, kept.statusCode(), kept.asString());
            assertTrue(errorOf(kept).contains("node ace holds a copy of db restored elsewhere while it was down, fenced there"
                    + " the moment its agent answers again") && errorOf(kept).contains("'mesh node remove ace --forget-lost'"),
                    kept.asString());
            Response notBoolean = delete("/v1/mesh/nodes/ace?forget-lost=yes").send(token);
            assertEquals(400, notBoolean.statusCode(), notBoolean.asString());
            assertTrue(errorOf(notBoolean).contains("forget-lost: true or false, not 'yes'"), notBoolean.asString());
            unchanged(before, "the refused removals").execute();

            Response gone = delete("/v1/mesh/nodes/ace?forget-lost=true").send(token);
            assertEquals(204, gone.statusCode(), gone.asString());
            assertEquals(1, StoreSnapshot.count(dataSource, "nodes"), "ace removed");
            assertEquals(0, StoreSnapshot.count(dataSource, "lost_copies"), "its lost copy forgotten");
        } finally {
            try (java.sql.Connection c = dataSource.getConnection(); java.sql.Statement s = c.createStatement()) {
                s.execute("truncate lost_copies");
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // the CLI, as a process

    /** CliCase is one refused verb: what to set up, the command line, its exit code and what stderr names. */
    record CliCase(String name, List<ApiCall> setup, Map<String, String> env, List<String> args, int exit,
                   List<String> names) {
        @Override
        public String toString() {
            return name;
        }
    }

    static CliCase verb(String name, List<String> args, int exit, String... names) {
        return new CliCase(name, List.of(), Map.of(), args, exit, List.of(names));
    }

    Stream<CliCase> cliCases() {
        Path catalogue = folder(Map.of("good.yaml", GOOD, "web.yaml", WEB,
                "bad.yaml", "module: a\ncomponents:\n  a.web:\n    ports: [80]\n"));
        return Stream.of(
                verb("catalogue add: a folder with a bad manifest among good ones",
                        List.of("catalogue", "add", catalogue.toString()), 1,
                        "bad.yaml:3:3: components.a.web.image: is required"),
                verb("catalogue add: a file that is not there",
                        List.of("catalogue", "add", catalogue.resolve("missing.yaml").toString()), 1,
                        "cannot read", "missing.yaml"),
                verb("node add: a bad name", List.of("node", "add", "Ace!", "--address", "1.2.3.4"), 1,
                        "node name: lower-case letters, digits and '-' (a DNS label: 1-63 characters, not starting or ending with '-'), got 'Ace!'"),
                verb("node public-domain: not a domain", List.of("node", "public-domain", "novox", "a b"), 1,
                        "not a domain name: 'a b'"),
                verb("node remove: a node that runs a module", List.of("node", "remove", "novox"), 1,
                        "node novox still has modules assigned or running: web"),
                verb("node remove: a name that is a path", List.of("node", "remove", "novox/modules/web"), 1,
                        "novox/modules/web"),
                verb("assign: an unknown node", List.of("assign", "nosuchnode", "web"), 1, "unknown node nosuchnode"),
                verb("assign: a node name with a space", List.of("assign", "a b", "web"), 1, "a b"),
                verb("push: an unknown node", List.of("push", "nosuchnode"), 1, "unknown node nosuchnode"),
                new CliCase("push: a plan that fails (app assigned to ace, nobody serves db.internal)",
                        List.of(put("/v1/mesh/nodes/ace/modules/app")), Map.of(), List.of("push"), 1,
                        List.of("node ace: component app.server (app) binds 'db.internal', which no node serves")),
                new CliCase("a wrong token", List.of(), Map.of("MESH_TOKEN", "not-the-token"),
                        List.of("assign", "ace", "db"), 1, List.of("wrong bearer token")),
                verb("usage: node add without --address", List.of("node", "add", "shanks"), 2,
                        "Missing required option: '--address=ADDR'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cliCases")
    @Order(3)
    void everyRefusedVerbExitsWithItsProblemAndChangesNothing(CliCase c) {
        c.setup().forEach(this::accepted);
        String before = StoreSnapshot.of(dataSource);

        Map<String, String> env = new java.util.HashMap<>(cli);
        env.putAll(c.env());
        PackagedMesh.Result run = PackagedMesh.run(env, c.args().toArray(String[]::new));

        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertEquals(c.exit(), run.exit(), "exit code of " + run));
        checks.add(() -> assertTrue(run.err().startsWith("mesh: "), "stderr starts with 'mesh: ': " + run));
        for (String name : c.names()) {
            checks.add(() -> assertTrue(run.err().contains(name), "stderr should name '" + name + "': " + run));
        }
        checks.add(() -> assertFalse(run.err().contains("internal error"),
                "a bad argument is the operator's mistake, not an internal error: " + run));
        checks.add(() -> assertTrue(run.out().isBlank(), "a refused verb prints nothing on stdout: " + run));
        checks.add(unchanged(before, run.toString()));
        assertAll(c.name(), checks);
    }

    Path folder(Map<String, String> files) {
        try {
            Path dir = Files.createTempDirectory("mesh-input-it");
            scratch.add(dir);
            for (Map.Entry<String, String> f : files.entrySet()) {
                Files.writeString(dir.resolve(f.getKey()), f.getValue());
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
