package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import mesh.cli.ConfigFile;
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
 * MeshE2EIT raises a whole mesh as operators would, with {@code mesh install} on the first of three
 * simulated nodes and {@code mesh install --join} on the others ({@link InstalledMesh}: each node its
 * own network namespace, engine and installed host agent; the seat runs the mesh's store, artifact
 * store and controller), a catalogue of nine more modules with binds and routes beside the mesh's own
 * store and registry, and the CLI driving it with the config file install wrote. It then replays the
 * incident that started mesh (docs/design.md) and checks, container by container, what each push touched.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class MeshE2EIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";
    /** novox of the incident that started mesh (docs/design.md): the seat, which runs mesh-store and mesh-registry. */
    static final String NOVOX = "n1";
    static final String G14 = "n2";
    static final String ACE = "n3";
    static final List<String> NAMES = List.of(NOVOX, G14, ACE);
    /** The agents of this test pass every two seconds. */
    static final Map<String, String> AGENT_ENV = Map.of("MESH_HOST_INTERVAL", "2s");

    InstalledMesh mesh;
    Path catalogue;

    @BeforeAll
    void raiseTheMesh() throws Exception {
        mesh = InstalledMesh.raise(3);
        // a budget a push of three replacements exceeds (test 4); install gives the controller the default
        mesh.controllerEnv(Map.of("MESH_PUSH_BUDGET", "2"));
        mesh.restartAgents(NAMES, AGENT_ENV);
        mesh.awaitController(Duration.ofSeconds(60));
        catalogue = writeCatalogue();
        ok("catalogue", "add", catalogue.toString());
        ok("node", "public-domain", NOVOX, "novox.be");
        // mesh-store and mesh-registry run on novox already: mesh install assigned them to the seat
        for (String[] a : new String[][] {{NOVOX, "route-proxy"},
                {NOVOX, "gitea"}, {NOVOX, "keycloak"}, {G14, "mailu"}, {G14, "minio"}, {G14, "umami"},
                {ACE, "invoicing"}, {ACE, "photos"}}) {
            ok("assign", a[0], a[1]);
        }
        JsonNode first = json(mesh("push", "--yes", "-o", "json"));
        assertEquals(3, sent(first).size(), first.toString());
        awaitConverged();
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        PackagedMesh.deleteTree(catalogue);
    }

    /** The incident that started mesh (docs/design.md), replayed: nothing outside the module that moves is touched, on any node. */
    @Test
    @Order(1)
    void theFieldReportsActionsTouchOnlyWhatBindsANameThatChanged() throws Exception {
        Map<String, Map<String, String>> before = containers();

        ok("node", "public-domain", ACE, "zurag.be");
        ok("assign", ACE, "searxng");
        JsonNode assign = json(ok("push", "--wait", "-o", "json"));
        assertEquals(List.of(ACE), sent(assign), "only ace's declaration changed: " + assign);
        JsonNode ace = agentGet(ACE, "/v1/status");   // --wait returned: no polling here
        assertTrue(ace.get("converged").asBoolean(), ace.toString());
        assertEquals(outcome(assign, ACE).get("generation").asLong(), ace.get("appliedGeneration").asLong(), ace.toString());
        assertTrue(json(ok("roster", "-o", "json")).toString().contains("searxng.zurag.be"));
        // ace now serves a route: it runs the edge too (docs/design.md, "The edge"); nothing else moves.
        assertUntouched(before, containers(), List.of("searxng.server", "route-proxy.server"), List.of());

        ok("unassign", ACE, "searxng");
        String unassign = ok("push", "--wait");
        assertTrue(unassign.contains(ACE + ": sent generation") && unassign.contains(ACE + ": converged at generation"), unassign);
        assertTrue(agentGet(ACE, "/v1/status").get("converged").asBoolean());
        assertUntouched(before, containers(), List.of(), List.of());

        ok("assign", ACE, "searxng");
        JsonNode again = json(ok("push", "-o", "json"));
        assertEquals(List.of(ACE), sent(again), again.toString());
        awaitConverged();
        assertUntouched(before, containers(), List.of("searxng.server", "route-proxy.server"), List.of());
        assertEquals(0, again.get("replacements").asInt());
    }

    /** Invariant 3 (docs/design.md): a node whose plan fails fails the push, names node, component and name; nobody gets anything. */
    @Test
    @Order(2)
    void aFailedPlanSendsNothingAndLeavesTheRosterAsItWas() throws Exception {
        String roster = ok("roster", "-o", "json");
        Map<String, Integer> kept = declarationCounts();
        ok("node", "public-domain", NOVOX, "novox.org");

        PackagedMesh.Result push = mesh("push");

        assertEquals(1, push.exit(), push.toString());
        assertTrue(push.err().contains("node " + G14 + ": component mailu.server (mailu) binds 'keycloak.novox.be', which no node serves"),
                push.toString());
        assertEquals(kept, declarationCounts(), "declarations each agent accepted");
        assertEquals(roster, ok("roster", "-o", "json"));
        ok("node", "public-domain", NOVOX, "novox.be");
        JsonNode back = json(ok("push", "-o", "json"));
        assertEquals(List.of(), sent(back), "back to the pushed state: nothing differs " + back);
    }

    /** Invariant 5 (docs/design.md): an unreachable node is left behind, the others get theirs, and it is sent next time. */
    @Test
    @Order(3)
    void aNodeWhoseAgentIsDownIsLeftBehindAndSentWhenItIsBack() throws Exception {
        mesh.killAgent(ACE);
        PackagedMesh.Result down = mesh("status", "-o", "json");
        assertEquals(1, down.exit(), "a node needs attention: " + down);
        assertTrue(statusOf(json(down), ACE).get("state").asText().matches("node " + ACE + "'s agent at .* did not answer .*"),
                down.toString());
        assertTrue(down.err().contains("mesh: 1 node needs attention: " + ACE), down.toString());
        assertTrue(statusOf(json(down), NOVOX).get("ok").asBoolean(), down.toString());
        updateModule("photos", "PHOTOS_VERSION", "2");
        updateModule("minio", "MINIO_VERSION", "2");

        PackagedMesh.Result push = mesh("push", G14, "-o", "json");

        assertEquals(1, push.exit(), push.toString());
        JsonNode report = json(push.out());
        assertEquals(List.of(G14), sent(report));
        assertTrue(outcome(report, ACE).get("outcome").asText().equals("behind"), report.toString());
        assertTrue(outcome(report, ACE).get("leftBehind").asBoolean(), report.toString());
        assertTrue(report.get("notes").toString().contains("left " + ACE + " behind"), report.toString());

        mesh.startAgent(ACE, AGENT_ENV);
        awaitAgent(ACE);
        PackagedMesh.Result retry = mesh("push", "-o", "json");
        assertEquals(0, retry.exit(), retry.toString());
        assertEquals(List.of(ACE), sent(json(retry.out())));
        awaitConverged();
        assertEveryNodeUpAndRunning();
    }

    /**
     * {@code mesh status}: every node acknowledged, applied and running all it was sent, as its agent says now:
     * its running containers are exactly the node's containers, and every process it supervises (the seat's
     * controller) runs.
     */
    void assertEveryNodeUpAndRunning() throws Exception {
        PackagedMesh.Result status = mesh("status", "-o", "json");
        assertEquals(0, status.exit(), status.toString());
        Map<String, Map<String, String>> containers = containers();
        for (String name : NAMES) {
            JsonNode n = statusOf(json(status), name);
            assertEquals("up to date", n.get("state").asText(), n.toString());
            assertEquals(n.get("node").get("ackedGeneration").asLong(), n.get("agent").get("appliedGeneration").asLong());
            List<String> running = new ArrayList<>();
            List<String> processesNotRunning = new ArrayList<>();
            n.get("agent").get("components").forEach(c -> {
                boolean isRunning = c.get("state").asText().equals("running");
                if (c.path("process").isObject()) {
                    if (!isRunning) {
                        processesNotRunning.add(c.get("name").asText());
                    }
                } else if (isRunning) {
                    running.add(c.get("name").asText());
                }
            });
            assertEquals(new TreeSet<>(containers.get(name).keySet()), new TreeSet<>(running), n.toString());
            assertEquals(List.of(), processesNotRunning, n.toString());
        }
        PackagedMesh.Result table = mesh("status");
        assertEquals(0, table.exit(), table.toString());
        assertTrue(table.out().startsWith("NODE") && table.out().contains("up to date"), table.toString());
    }

    static JsonNode statusOf(JsonNode status, String node) {
        for (JsonNode n : status) {
            if (n.get("node").get("name").asText().equals(node)) {
                return n;
            }
        }
        throw new AssertionError("no status for " + node + " in " + status);
    }

    /** The preview is computed by the hosts, and the real push replaces exactly what it listed. */
    @Test
    @Order(4)
    void aDryRunListsExactlyTheReplacementsThePushThenPerformsAndTheBudgetStopsABigPush() throws Exception {
        Map<String, Map<String, String>> before = containers();
        updateModule("gitea", "GITEA_VERSION", "2");
        updateModule("keycloak", "KEYCLOAK_VERSION", "2");
        updateModule("mailu", "MAILU_VERSION", "2");

        JsonNode dry = json(ok("push", "--dry-run", "-o", "json"));
        Map<String, TreeSet<String>> previewed = replaced(dry);
        assertEquals(Map.of(G14, new TreeSet<>(List.of("mailu.server")),
                NOVOX, new TreeSet<>(List.of("gitea.server", "keycloak.server"))), previewed, dry.toString());
        assertEquals(before, containers(), "a dry run changes nothing");

        PackagedMesh.Result overBudget = mesh("push");
        assertEquals(1, overBudget.exit());
        assertTrue(overBudget.err().contains("would replace 3 containers, more than the budget of 2"), overBudget.toString());
        assertEquals(before, containers(), "a push over budget changes nothing");

        JsonNode real = json(ok("push", "--yes", "-o", "json"));
        assertEquals(previewed, replaced(real), real.toString());
        awaitConverged();
        assertUntouched(before, containers(), List.of(), List.of("gitea.server", "keycloak.server", "mailu.server"));
    }

    /**
     * Nothing lost on a crash: a push whose transaction never committed (the controller died after
     * the agent accepted) leaves the store a generation behind the agent. The next push must not be
     * refused forever as "not newer": it sends the same content numbered after the agent's newest,
     * and nothing on the node is touched.
     */
    @Test
    @Order(5)
    void aPushTheStoreNeverCommittedIsCaughtUpByTheNext() throws Exception {
        String[] saved = pushRow(ACE);
        updateModule("invoicing", "INVOICING_VERSION", "2");
        JsonNode lost = json(ok("push", "-o", "json"));
        assertEquals(List.of(ACE), sent(lost), lost.toString());
        long accepted = outcome(lost, ACE).get("generation").asLong();
        awaitConverged();
        restorePushRow(ACE, saved);
        Map<String, Map<String, String>> before = containers();

        JsonNode next = json(ok("push", "-o", "json"));

        assertEquals(List.of(ACE), sent(next), "the store believes ace is behind: " + next);
        assertEquals(accepted + 1, outcome(next, ACE).get("generation").asLong(), next.toString());
        assertEquals(0, next.get("replacements").asInt(), next.toString());
        awaitConverged();
        assertEquals(before, containers(), "ace already runs this declaration");
        assertEquals(List.of(), sent(json(ok("push", "-o", "json"))), "and the store knows it now");
    }

    /**
     * An agent that lost its records (a new disk, a wiped state directory) holds no declaration, which
     * the store cannot know: the next push asks and sends that node its declaration again. Its
     * containers already match, so nothing on it is touched.
     */
    @Test
    @Order(6)
    void aNodeWhoseAgentLostItsRecordsIsSentItsDeclarationAgain() throws Exception {
        mesh.killAgent(G14);
        PackagedMesh.deleteTree(agentStateDir(G14));
        mesh.startAgent(G14, AGENT_ENV);
        awaitAgent(G14);
        assertEquals(0, agentGet(G14, "/v1/status").get("generation").asLong());
        Map<String, Map<String, String>> before = containers();

        JsonNode push = json(ok("push", "-o", "json"));

        assertEquals(List.of(G14), sent(push), push.toString());
        assertTrue(push.get("notes").toString().contains("node " + G14 + "'s agent holds generation 0, older than the"), push.toString());
        assertEquals(0, push.get("replacements").asInt(), push.toString());
        awaitConverged();
        assertEquals(before, containers(), "g14 already runs its declaration");
        assertEquals(1, agentGet(G14, "/v1/declarations").size());
        assertEquals(List.of(), sent(json(ok("push", "-o", "json"))), "and nothing differs now");
    }

    /**
     * A store restored from a backup is the truth the mesh returns to: a node whose agent holds a
     * newer generation (running what the backup never saw) is sent the restored declaration, and
     * exactly the component that differs is replaced.
     */
    @Test
    @Order(7)
    void aStoreRestoredFromABackupBringsTheNodeBackToIt() throws Exception {
        String[] backup = pushRow(ACE);
        String searxng = Files.readString(catalogue.resolve("searxng.yaml"));
        updateModule("searxng", "SEARXNG_VERSION", "2");
        JsonNode after = json(ok("push", "-o", "json"));
        assertEquals(List.of(ACE), sent(after), after.toString());
        long agentHolds = outcome(after, ACE).get("generation").asLong();
        awaitConverged();

        restorePushRow(ACE, backup);
        Files.writeString(catalogue.resolve("searxng.yaml"), searxng);
        ok("catalogue", "add", catalogue.resolve("searxng.yaml").toString());
        Map<String, Map<String, String>> before = containers();

        JsonNode push = json(ok("push", "-o", "json"));

        assertEquals(List.of(ACE), sent(push), push.toString());
        assertTrue(push.get("notes").toString().contains("node " + ACE + "'s agent holds generation " + agentHolds + ", newer than"),
                push.toString());
        assertEquals(Map.of(ACE, new TreeSet<>(List.of("searxng.server"))), replaced(push), push.toString());
        assertTrue(outcome(push, ACE).get("generation").asLong() > agentHolds, push.toString());
        awaitConverged();
        assertUntouched(before, containers(), List.of(), List.of("searxng.server"));
        assertEquals(List.of(), sent(json(ok("push", "-o", "json"))), "and nothing differs now");
        assertEveryNodeUpAndRunning();
    }

    /** push --wait waits for what it sent, and names the node and the component that never got there. */
    @Test
    @Order(8)
    void pushWaitNamesWhatDoesNotConverge() throws Exception {
        Path dir = Files.createTempDirectory("mesh-e2e-broken");
        module(dir, "broken", List.of(), List.of());
        Path file = dir.resolve("broken.yaml");
        Files.writeString(file, Files.readString(file).replace("mesh-test/busybox:1", "mesh-test/no-such-image:1"));
        ok("catalogue", "add", file.toString());
        ok("assign", G14, "broken");

        PackagedMesh.Result push = mesh("push", "--wait", "--wait-timeout", "5");

        assertEquals(1, push.exit(), push.toString());
        assertTrue(push.out().contains(G14 + ": sent generation"), push.toString());
        // a missing image is a definite failure: the wait stops early, naming node, component and image
        assertTrue(push.err().contains("mesh: failed: " + G14 + "/broken.server failing: image mesh-test/no-such-image:1 is not on this engine"),
                push.toString());
        assertEquals(1, mesh("status").exit(), "status agrees");

        ok("unassign", G14, "broken");
        assertTrue(ok("push", "--wait").contains(G14 + ": converged at generation"));
        assertEveryNodeUpAndRunning();
    }

    // ---- the mesh's parts

    /** The store's row of what a node was sent and acknowledged, to put back as a lost commit would. */
    String[] pushRow(String node) throws Exception {
        try (Connection c = store();
             var s = c.prepareStatement("select last_generation, acked_generation, acked_declaration::text from node_pushes where node = ?")) {
            s.setString(1, node);
            var r = s.executeQuery();
            assertTrue(r.next(), "no push row for " + node);
            return new String[] {r.getString(1), r.getString(2), r.getString(3)};
        }
    }

    /**
     * Puts a push row back. The store refuses a write by a controller older than its epoch (docs/design.md,
     * V2__controller_epoch.sql), so the test writes at the store's own epoch, as the running controller does.
     */
    void restorePushRow(String node, String[] row) throws Exception {
        try (Connection c = store()) {
            c.setAutoCommit(false);
            c.createStatement().execute("select set_config('mesh.epoch', (select max(epoch) from controller_epoch)::text, true)");
            try (var s = c.prepareStatement("""
                     update node_pushes set last_generation = ?, acked_generation = ?, acked_declaration = ?::jsonb
                     where node = ?""")) {
                s.setLong(1, Long.parseLong(row[0]));
                s.setLong(2, Long.parseLong(row[1]));
                s.setString(3, row[2]);
                s.setString(4, node);
                assertEquals(1, s.executeUpdate());
            }
            c.commit();
        }
    }

    /** The mesh's store, mesh-store on the seat, with the password mesh install made for it. */
    Connection store() throws Exception {
        Map<String, String> secrets = ConfigFile.read(mesh.seat().state().resolve("install/secrets.env"));
        return DriverManager.getConnection("jdbc:postgresql://" + mesh.testbed(NOVOX).address() + ":5432/mesh", "mesh",
                secrets.get("MESH_STORE_PASSWORD"));
    }

    /** The node's agent's state folder (its records), as install's host.env names it. */
    Path agentStateDir(String name) {
        return Path.of(ConfigFile.read(mesh.node(name).config().resolve("host.env")).get("MESH_HOST_STATE_DIR"));
    }

    /** Waits until the agent answers its status (the port opens during boot; it serves a moment later). */
    void awaitAgent(String name) throws InterruptedException {
        PackagedMesh.await("node " + name + "'s agent answers", Duration.ofSeconds(60),
                () -> quietly(() -> agentGet(name, "/v1/status").has("generation")));
    }

    /** GET of the node's agent API, as the controller makes it (HTTPS, its client certificate). */
    JsonNode agentGet(String name, String path) throws IOException, InterruptedException {
        return mesh.agent(name, path);
    }

    void awaitConverged() throws InterruptedException {
        PackagedMesh.await("every agent converged at its last generation", Duration.ofSeconds(90), () -> quietly(() -> {
            for (String name : NAMES) {
                JsonNode s = agentGet(name, "/v1/status");
                if (!s.path("converged").asBoolean() || s.path("generation").asLong() != s.path("appliedGeneration").asLong()) {
                    return false;
                }
                for (JsonNode c : s.path("components")) {
                    if ("starting".equals(c.path("state").asText())) {
                        return false;   // running means healthy: a container up for an instant is starting (docs/health.md)
                    }
                }
            }
            return true;
        }));
    }

    Map<String, Integer> declarationCounts() throws IOException, InterruptedException {
        Map<String, Integer> counts = new TreeMap<>();
        for (String name : NAMES) {
            counts.put(name, agentGet(name, "/v1/declarations").size());
        }
        return counts;
    }

    /** Container name to id, per node: what "touched" means. */
    Map<String, Map<String, String>> containers() {
        Map<String, Map<String, String>> all = new TreeMap<>();
        for (String name : NAMES) {
            Map<String, String> ids = new TreeMap<>();
            mesh.engine(name).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", name)).exec()
                    .forEach(c -> ids.put(c.getNames()[0].substring(1), c.getId()));
            all.put(name, ids);
        }
        return all;
    }

    /** Every container keeps its id, except those named as created (new) or replaced (new id). */
    static void assertUntouched(Map<String, Map<String, String>> before, Map<String, Map<String, String>> after,
                                List<String> created, List<String> replaced) {
        List<String> problems = new ArrayList<>();
        after.forEach((node, ids) -> ids.forEach((name, id) -> {
            String old = before.get(node).get(name);
            if (old == null && !created.contains(name)) {
                problems.add(node + ": " + name + " appeared");
            } else if (old != null && !old.equals(id) && !replaced.contains(name)) {
                problems.add(node + ": " + name + " was replaced");
            } else if (old != null && old.equals(id) && replaced.contains(name)) {
                problems.add(node + ": " + name + " was not replaced");
            }
        }));
        before.forEach((node, ids) -> ids.keySet().stream().filter(n -> !after.get(node).containsKey(n))
                .forEach(n -> problems.add(node + ": " + n + " disappeared")));
        assertEquals(List.of(), problems);
    }

    static List<String> sent(JsonNode report) {
        List<String> nodes = new ArrayList<>();
        report.get("nodes").forEach(n -> {
            if (n.get("outcome").asText().equals("sent")) {
                nodes.add(n.get("node").asText());
            }
        });
        return nodes;
    }

    static JsonNode outcome(JsonNode report, String node) {
        for (JsonNode n : report.get("nodes")) {
            if (n.get("node").asText().equals(node)) {
                return n;
            }
        }
        throw new AssertionError("no outcome for " + node + " in " + report);
    }

    static Map<String, TreeSet<String>> replaced(JsonNode report) {
        Map<String, TreeSet<String>> replaced = new TreeMap<>();
        report.get("nodes").forEach(n -> {
            if (n.hasNonNull("plan") && !n.get("plan").get("replace").isEmpty()) {
                TreeSet<String> names = new TreeSet<>();
                n.get("plan").get("replace").forEach(r -> names.add(r.get("name").asText()));
                replaced.put(n.get("node").asText(), names);
            }
        });
        return replaced;
    }

    // ---- the CLI

    PackagedMesh.Result mesh(String... args) throws IOException, InterruptedException {
        return mesh.mesh(args);
    }

    String ok(String... args) throws IOException, InterruptedException {
        PackagedMesh.Result r = mesh(args);
        assertEquals(0, r.exit(), () -> "mesh " + String.join(" ", args) + ": " + r);
        return r.out();
    }

    static JsonNode json(PackagedMesh.Result r) throws IOException {
        return json(r.out());
    }

    static JsonNode json(String text) throws IOException {
        return JSON.readTree(text);
    }

    interface Check {
        boolean get() throws Exception;
    }

    static boolean quietly(Check check) {
        try {
            return check.get();
        } catch (Exception e) {
            return false;
        }
    }

    // ---- the catalogue: nine modules beside the mesh's store and registry, with binds across nodes and routes

    Path writeCatalogue() throws IOException {
        Path dir = Files.createTempDirectory("mesh-e2e-catalogue");
        // mesh-store and mesh-registry are the mesh's own, which mesh install added and runs on the seat
        module(dir, "route-proxy", List.of(), List.of());
        module(dir, "gitea", List.of("mesh-store.internal"), List.of("git"), 3000);
        module(dir, "keycloak", List.of("mesh-store.internal"), List.of("keycloak"), 8080);
        module(dir, "mailu", List.of("mesh-store.internal", "keycloak.novox.be"), List.of());
        module(dir, "minio", List.of(), List.of());
        module(dir, "umami", List.of("mesh-store.internal", "git.novox.be"), List.of());
        module(dir, "invoicing", List.of("minio.internal", "mesh-store.internal"), List.of());
        module(dir, "photos", List.of("minio.internal", "keycloak.novox.be"), List.of());
        module(dir, "searxng", List.of(), List.of("searxng"), 8080);
        return dir;
    }

    void updateModule(String name, String key, String value) throws Exception {
        Path file = catalogue.resolve(name + ".yaml");
        Files.writeString(file, Files.readString(file).replace("    env: {}", "    env: {" + key + ": \"" + value + "\"}"));
        ok("catalogue", "add", file.toString());
    }

    static void module(Path dir, String name, List<String> binds, List<String> routes) throws IOException {
        module(dir, name, binds, routes, 0);
    }

    /**
     * A module of one busybox component that binds {@code binds}; with routes, its component
     * publishes {@code port} and each route goes there (modules on one node publish different ports).
     */
    static void module(Path dir, String name, List<String> binds, List<String> routes, int port) throws IOException {
        StringBuilder y = new StringBuilder("module: " + name + "\ncomponents:\n");
        y.append("  ").append(name).append(".server:\n")
                .append("    image: mesh-test/busybox:1\n")
                .append("    args: [sh, -c, \"").append(LOOP).append("\"]\n")
                .append("    env: {}\n")
                .append("    binds: [").append(String.join(", ", binds)).append("]\n")
                .append("    volumes: {data: /data}\n");
        if (!routes.isEmpty()) {
            y.append("    ports: [").append(port).append("]\n");
        }
        y.append("    stop-timeout: 3s\n");
        if (!routes.isEmpty()) {
            y.append("routes:\n");
            routes.forEach(r -> y.append("  ").append(r).append(": {component: ").append(name).append(".server, port: ")
                    .append(port).append("}\n"));
        }
        Files.writeString(dir.resolve(name + ".yaml"), y.toString());
    }
}
