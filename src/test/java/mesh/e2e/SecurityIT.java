package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import mesh.controller.StoreSnapshot;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import mesh.trust.Pem;
import mesh.trust.TlsContexts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.Executable;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * SecurityIT is the trust between the operator, the controller and an agent (docs/trust.md), on a
 * mesh raised by {@code mesh install} ({@link InstalledMesh}: the seat alone, its controller over HTTPS
 * on the seat's own store, its agent holding no token).
 *
 * <p>A scripted session with two named operator tokens (alice, bob, made with the bootstrap token
 * admin, the one install wrote into the operator's config): the audit trail says who did each step,
 * and bob's token is refused at his very next request after alice revokes it. Every endpoint of the
 * controller, found from its resource classes (so a verb added later is covered too), answers 401
 * with a clear message without a token, with a wrong one, with the revoked one and with a node's join
 * token, and the store and the node's containers are unchanged after all of them. The agent is pushed
 * to without any token (its calls are checked by certificate: TlsIT). The bootstrap token follows the
 * controller's MESH_CONTROLLER_TOKEN across restarts: the same one after the controller process is
 * stopped and its agent starts it again, a new one set as an operator of an installed mesh does (written
 * into the token file install made, MESH_CONTROLLER_TOKEN_FILE, and the controller restarted). The store, read in full, holds no operator token
 * in clear and no agent token of any form (no column for one, nothing sealed, a join token only as its
 * hash), and no log file of the installed mesh or output of the session holds any token, except the
 * one output that shows a token once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class SecurityIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String NODE = "n1";
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";
    /** The first row of every store: the controller storing the bootstrap token at its first start. */
    static final String BOOTSTRAP = "controller token create: operator token admin stored from the controller's MESH_CONTROLLER_TOKEN";

    /** Every token this test made or was given: the bootstrap's, alice's, bob's, the node's join tokens. */
    final Map<String, String> tokens = new LinkedHashMap<>();
    /** Every output of every verb, except those that show a token once (token create, node token). */
    final List<String> outputs = new ArrayList<>();
    InstalledMesh mesh;
    HttpClient http;
    Path catalogue;
    String controllerUrl;
    PGSimpleDataSource store;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(1);
        controllerUrl = mesh.cliEnv().get("MESH_CONTROLLER");
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .sslContext(TlsContexts.trusting(Pem.certificate(Path.of(mesh.cliEnv().get("MESH_CA"))))).build();
        store = InstalledTls.store(mesh);
        tokens.put("admin", mesh.cliEnv().get("MESH_TOKEN"));
        catalogue = Files.createTempDirectory("mesh-sec-catalogue");
        Files.writeString(catalogue.resolve("secweb.yaml"), "module: secweb\ncomponents:\n  secweb.server:\n"
                + "    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 3s\n");
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        if (catalogue != null) {
            PackagedMesh.deleteTree(catalogue);
        }
    }

    @Test
    @Order(1)
    void theAuditSaysWhoDidEachStepAndARevokedTokenIsRefusedAtItsNextRequest() throws Exception {
        int installed = JSON.readTree(ok("admin", "audit", "-o", "json")).size();
        long generation = JSON.readTree(ok("admin", "node", "list", "-o", "json")).get(0).get("generation").asLong();
        tokens.put("alice", created("alice"));
        tokens.put("bob", created("bob"));

        // the node was added and joined by install; alice gives it a new join token (a re-join's)
        JsonNode joining = JSON.readTree(shownOnce("alice", "node", "token", NODE, "--rotate", "-o", "json"));
        tokens.put("join", joining.get("joinToken").asText());
        assertTrue(tokens.get("join").matches("[0-9a-f]{64}"), joining.toString());
        assertFalse(Files.readString(mesh.node(NODE).config().resolve("host.env")).contains("MESH_HOST_TOKEN"),
                "the agent holds no token");
        ok("alice", "catalogue", "add", catalogue.toString());
        ok("alice", "assign", NODE, "secweb");
        PackagedMesh.await("the agent takes bob's push", Duration.ofSeconds(90),
                () -> as("bob", "push", "--wait", "--wait-timeout", "60").exit() == 0);
        ok("bob", "node", "public-domain", NODE, "sec.example");
        ok("alice", "token", "revoke", "bob");

        PackagedMesh.Result refused = as("bob", "node", "list");
        assertEquals(1, refused.exit(), refused.toString());
        assertTrue(refused.err().startsWith("mesh: operator token bob was revoked at "), refused.err());
        PackagedMesh.Result write = as("bob", "unassign", NODE, "secweb");
        assertEquals(1, write.exit(), write.toString());

        List<String> steps = new ArrayList<>();
        for (JsonNode e : JSON.readTree(ok("alice", "audit", "-o", "json"))) {
            steps.add(e.get("token").asText() + " " + e.get("verb").asText() + ": " + e.get("change").asText());
        }
        // the store's first row, then what install did (its own pushes and placements), then the session
        assertEquals(BOOTSTRAP, steps.get(0), steps.toString());
        assertEquals(List.of(
                "admin token create: operator token alice made",
                "admin token create: operator token bob made",
                "alice node token: node " + NODE + ": new join token (the node's earlier one, if unspent, no longer works)",
                "alice catalogue add: catalogue: added secweb",
                "alice assign: module secweb: assigned nowhere → " + NODE + ", taken nowhere → " + NODE,
                "bob push: sent " + NODE + " generation " + (generation + 1),
                "bob node public-domain: node " + NODE + ": public domain none → sec.example",
                "alice token revoke: operator token bob revoked"), steps.subList(installed, steps.size()), steps.toString());
        assertEquals(0, JSON.readTree(ok("alice", "audit", "--since", "2099-01-01", "-o", "json")).size(),
                "--since in the future shows nothing");

        Map<String, JsonNode> listed = new TreeMap<>();
        JSON.readTree(ok("alice", "token", "list", "-o", "json")).forEach(t -> listed.put(t.get("name").asText(), t));
        assertEquals(List.of("admin", "alice", "bob"), List.copyOf(listed.keySet()));
        assertNotNull(listed.get("bob").path("revoked").textValue(), listed.toString());
        assertNull(listed.get("alice").path("revoked").textValue(), listed.toString());
        assertEquals("admin", listed.get("alice").get("createdBy").asText(), listed.toString());
        assertNotNull(listed.get("alice").path("lastUsed").textValue(), listed.toString());
    }

    @Test
    @Order(2)
    void everyEndpointRefusesNoTokenAWrongOneAndARevokedOneAndNothingChanges() throws Exception {
        String before = StoreSnapshot.of(store);
        Map<String, String> containers = containers();
        List<String[]> endpoints = ApiEndpoints.controller();
        assertTrue(endpoints.size() >= 19, "the controller's endpoints as found: " + endpoints.size());
        List<Executable> checks = new ArrayList<>();
        for (String[] e : endpoints) {
            String path = e[1].replace("{name}", NODE).replace("{node}", NODE).replace("{module}", "secweb")
                    .replace("{id}", "1");
            checks.add(() -> refused(e[0], controllerUrl + path, null, "missing bearer token"));
            checks.add(() -> refused(e[0], controllerUrl + path, "Bearer " + "0".repeat(64), "wrong bearer token"));
            checks.add(() -> refused(e[0], controllerUrl + path, tokens.get("admin"), "wrong bearer token"));
            checks.add(() -> refused(e[0], controllerUrl + path, "Bearer " + tokens.get("bob"),
                    "operator token bob was revoked at "));
            // a node's join token is not an operator token
            checks.add(() -> refused(e[0], controllerUrl + path, "Bearer " + tokens.get("join"), "wrong bearer token"));
        }
        // the agent's endpoints are refused by certificate, over HTTPS: TlsIT (a plain-HTTP agent has none to check)
        assertAll(checks);
        assertEquals("", StoreSnapshot.diff(before, StoreSnapshot.of(store)), "no refused request changes the store");
        assertEquals(containers, containers(), "no refused request changes the node");
    }

    @Test
    @Order(3)
    void tokensAreNeverReusedTheLastCannotBeRevokedAndTheBootstrapTokenFollowsItsVariable() throws Exception {
        assertAll(
                () -> refusedVerb("alice", "operator token bob already exists (revoked; a name is never given", "token", "create", "bob"),
                () -> refusedVerb("alice", "token name: lower-case letters", "token", "create", "Not-A-Name"),
                () -> refusedVerb("alice", "not 'controller'", "token", "create", "controller"),
                () -> refusedVerb("alice", "unknown operator token nosuch", "token", "revoke", "nosuch"),
                () -> refusedVerb("alice", "operator token bob was already revoked at ", "token", "revoke", "bob"));
        ok("alice", "token", "revoke", "admin");
        refusedVerb("alice", "operator token alice is the last one that is not revoked", "token", "revoke", "alice");
        refusedVerb("admin", "operator token admin was revoked at ", "node", "list");

        // the same MESH_CONTROLLER_TOKEN after a restart: admin stays revoked
        restartController();
        refusedVerb("admin", "operator token admin was revoked at ", "node", "list");
        ok("alice", "push");

        // a new one: admin is that token now; nothing in the store depended on the old one, so pushes go on
        tokens.put("admin, as installed", tokens.get("admin"));
        tokens.put("admin", HexFormat.of().formatHex(UUID.randomUUID().toString().getBytes()).substring(0, 48));
        newBootstrapToken(tokens.get("admin"));
        ok("admin", "node", "list");
        ok("admin", "unassign", NODE, "secweb");
        ok("admin", "push", "--wait", "--wait-timeout", "60");
        String log = Files.readString(InstalledTls.controllerLog(mesh));
        assertFalse(log.contains("sealed with another key"), log);
        // a new join token, for a re-join: its agent, not restarted, is not concerned
        JsonNode rotated = JSON.readTree(shownOnce("admin", "node", "token", NODE, "--rotate", "-o", "json"));
        tokens.put("join, rotated", rotated.get("joinToken").asText());
        ok("admin", "assign", NODE, "secweb");
        ok("admin", "push", "--wait", "--wait-timeout", "60");

        List<String> last = new ArrayList<>();
        // pushes and placements left out: whether a push sends anything depends on what the node already holds
        JSON.readTree(ok("admin", "audit", "-o", "json")).forEach(e -> {
            if (!List.of("push", "assign", "unassign").contains(e.get("verb").asText())) {
                last.add(e.get("token").asText() + " " + e.get("verb").asText() + ": " + e.get("change").asText());
            }
        });
        assertEquals(List.of("alice token revoke: operator token admin revoked",
                "controller token create: operator token admin replaced: the controller's MESH_CONTROLLER_TOKEN changed",
                "admin node token: node " + NODE + ": new join token (the node's earlier one, if unspent, no longer works)"),
                last.subList(last.size() - 3, last.size()), last.toString());
    }

    @Test
    @Order(4)
    void theStoreReadInFullHoldsNoTokenInClearAndNoAgentTokenAtAll() throws Exception {
        String all = StoreSnapshot.of(store);
        assertTrue(all.contains("table operator_tokens") && all.contains("table nodes"), all);
        tokens.forEach((who, token) -> assertFalse(all.contains(token), who + "'s token is in the store in clear"));
        assertFalse(all.contains("sealed:"), "no agent token, not even sealed: " + all);
        // the node's current join token only as its SHA-256; the one it replaced not at all
        assertTrue(all.contains("\\x" + sha256(tokens.get("join, rotated"))), "the join token's hash: " + all);
        assertFalse(all.contains(sha256(tokens.get("join"))), "the replaced join token's hash is gone: " + all);
        List<String> columns = new ArrayList<>();
        try (Connection c = store.getConnection(); var r = c.createStatement().executeQuery(
                "select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'nodes'"
                        + " order by 1")) {
            while (r.next()) {
                columns.add(r.getString(1));
            }
        }
        assertEquals(List.of("address", "agent", "cordoned", "created_at", "join_token_hash", "join_token_made", "name", "public_domain"), columns,
                "no column for an agent token");
    }

    static String sha256(String token) throws Exception {
        return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    @Order(5)
    void noLogAndNoOutputHoldsAnyToken() throws Exception {
        // every log of the installed mesh: the agent's, the controller's (and its older parts), install's own
        Path state = mesh.seat().state();
        List<Path> logs;
        try (Stream<Path> files = Files.walk(state)) {
            logs = files.filter(Files::isRegularFile).filter(p -> !p.startsWith(state.resolve("app")))
                    .filter(p -> p.getFileName().toString().matches(".*\\.log(\\.\\d+)?")).toList();
        }
        assertTrue(logs.contains(InstalledTls.controllerLog(mesh)), logs.toString());
        assertTrue(logs.contains(mesh.agentLog(NODE)), logs.toString());
        assertTrue(outputs.size() >= 10, "the session's outputs: " + outputs.size());
        List<Executable> checks = new ArrayList<>();
        for (Map.Entry<String, String> t : tokens.entrySet()) {
            for (Path log : logs) {
                checks.add(() -> assertFalse(Files.readString(log).contains(t.getValue()),
                        t.getKey() + "'s token is in " + log));
            }
            for (String out : outputs) {
                checks.add(() -> assertFalse(out.contains(t.getValue()), t.getKey() + "'s token is in an output: " + out));
            }
        }
        assertAll(checks);
    }

    // ---- helpers

    void refusedVerb(String who, String message, String... args) {
        PackagedMesh.Result r = as(who, args);
        assertEquals(1, r.exit(), r::toString);
        assertTrue(r.err().contains(message), r::toString);
    }

    /**
     * Stops the controller's JVM as a stop would (SIGTERM) and waits until the seat's agent, which supervises
     * it, has started it again with the same settings and it answers alice.
     */
    void restartController() throws Exception {
        long before = mesh.controllerPid();
        ProcessHandle jvm = ProcessHandle.of(before).flatMap(h -> Stream.concat(Stream.of(h), h.descendants())
                .filter(d -> d.info().commandLine().orElse("").contains("controller serve")).findFirst())
                .orElseThrow(() -> new AssertionError("no controller JVM under pid " + before));
        jvm.destroy();
        PackagedMesh.await("the controller process ends", Duration.ofSeconds(60), () -> !jvm.isAlive());
        PackagedMesh.await("the seat's agent starts the controller again", Duration.ofSeconds(120), () -> {
            try {
                return mesh.controllerPid() != before && answersAlice();
            } catch (IOException | RuntimeException notYet) {
                return false;
            }
        });
    }

    /**
     * Gives the controller a new bootstrap token the way an operator of an installed mesh does (docs/trust.md,
     * "The bootstrap token"): the token written into the file its MESH_CONTROLLER_TOKEN_FILE names, which mesh
     * install made (0600, in the seat's install folder; no manifest holds the token), and the controller
     * restarted; it stores the new token as admin at its start.
     */
    void newBootstrapToken(String token) throws Exception {
        Path file = mesh.seat().state().resolve("install/controller-token");
        assertTrue(Files.isRegularFile(file), "mesh install wrote no token file at " + file);
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        Files.writeString(file, token + "\n");
        restartController();
    }

    boolean answersAlice() {
        return PackagedMesh.run(env("alice"), "token", "list").exit() == 0;
    }

    Map<String, String> env(String who) {
        Map<String, String> env = new java.util.HashMap<>(mesh.cliEnv());
        env.put("MESH_TOKEN", tokens.get(who));
        return env;
    }

    /** Makes an operator token with the bootstrap token; its output is the one that shows it. */
    String created(String name) throws IOException {
        String token = JSON.readTree(shownOnce("admin", "token", "create", name, "-o", "json")).get("token").asText();
        assertTrue(token.matches("[0-9a-f]{64}"), token);
        return token;
    }

    PackagedMesh.Result as(String who, String... args) {
        PackagedMesh.Result r = PackagedMesh.run(env(who), args);
        outputs.add(r.out());
        outputs.add(r.err());
        return r;
    }

    /** A verb whose output shows a token once: kept out of {@link #outputs}, its error output is not. */
    String shownOnce(String who, String... args) {
        PackagedMesh.Result r = PackagedMesh.run(env(who), args);
        outputs.add(r.err());
        assertEquals(0, r.exit(), r::toString);
        return r.out();
    }

    String ok(String who, String... args) {
        PackagedMesh.Result r = as(who, args);
        assertEquals(0, r.exit(), r::toString);
        return r.out();
    }

    /** One request that must be answered 401 with a JSON error containing {@code message}. */
    void refused(String method, String url, String authorization, String message) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .method(method, method.equals("GET") || method.equals("DELETE") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("{}"));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        Supplier<String> what = () -> method + " " + url + " with " + (authorization == null ? "no token"
                : authorization.length() > 12 ? authorization.substring(0, 12) + "…" : authorization) + ": " + r.statusCode()
                + " " + r.body();
        assertEquals(401, r.statusCode(), what);
        String error = JSON.readTree(r.body()).get("error").asText();
        assertTrue(error.contains(message), what);
        tokens.values().forEach(t -> assertFalse(r.body().contains(t), "a refusal shows a token: " + what.get()));
    }

    /** The node's containers (the seat's store and registry among them): name → id and state. */
    Map<String, String> containers() {
        Map<String, String> ids = new TreeMap<>();
        mesh.engine(NODE).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", NODE)).exec()
                .forEach(c -> ids.put(c.getNames()[0].substring(1), c.getId() + " " + c.getState()));
        return ids;
    }
}
