package mesh.e2e;

import static mesh.e2e.MeshE2EIT.json;
import static mesh.e2e.MeshE2EIT.quietly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.command.InspectContainerResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
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
 * EdgeIT raises a mesh of three simulated nodes with {@code mesh install} and {@code --join}
 * ({@link InstalledMesh}: HTTPS, the installed agents, the CLI on install's config file), gives the
 * seat the public domain zurag.be and checks its edge, a real Caddy (mesh-test/caddy:2.11) with Caddy's
 * internal CA: routes are served over verified TLS, plain HTTP redirects, route changes reload
 * Caddy within 2 s without replacing any container, a configuration Caddy refuses is reported with
 * Caddy's message while the old routes keep answering, a killed edge comes back with its routes,
 * a route of a module on a node without a public domain is served through the edge of the domain
 * it names, and a wildcard route answers every other name under the domain.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class EdgeIT {

    /** The node with the public domain (the seat, which also runs the mesh's store, registry and controller). */
    static final String ACE = "n1";
    /** A node without a public domain whose module's route names zurag.be. */
    static final String G14 = "n2";
    /** The node of the wildcard route's module. */
    static final String G3 = "n3";
    static final String EDGE = "route-proxy.server";
    /** The route the agent's test hook makes Caddy refuse (EdgeKeeper.REFUSE_HOOK). */
    static final String REFUSED = "broken.zurag.be";

    InstalledMesh mesh;
    Path dir;
    Path ca;

    @BeforeAll
    void raiseTheMesh() throws Exception {
        mesh = InstalledMesh.raise(3);
        // the agents of this test pass every second; ace's has the edge's test hook (EdgeKeeper.REFUSE_HOOK)
        mesh.restartAgents(Map.of(ACE, Map.of("MESH_HOST_INTERVAL", "1s", "MESH_EDGE_TEST_REFUSE", REFUSED),
                G14, Map.of("MESH_HOST_INTERVAL", "1s"), G3, Map.of("MESH_HOST_INTERVAL", "1s")));
        mesh.awaitController(Duration.ofSeconds(60));
        dir = Files.createTempDirectory("mesh-edge-catalogue");
        writeCatalogue();
        ok("catalogue", "add", dir.toString());
        ok("node", "public-domain", ACE, "zurag.be");
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        PackagedMesh.deleteTree(dir);
    }

    /** 1: a route is served over TLS a client verifies with the CA {@code mesh route ca} prints; plain HTTP redirects. */
    @Test
    @Order(1)
    void aRouteIsServedOverVerifiedTlsAndPlainHttpRedirects() throws Exception {
        ok("assign", ACE, "searxng");
        ok("push", "--wait");

        // Caddy makes its CA when the routes are first loaded, at the latest one pass after the edge starts.
        PackagedMesh.await("mesh route ca prints the edge's CA", Duration.ofSeconds(15),
                () -> quietly(() -> mesh("route", "ca", ACE).out().startsWith("-----BEGIN CERTIFICATE-----")));
        String pem = ok("route", "ca", ACE);
        assertTrue(pem.strip().endsWith("-----END CERTIFICATE-----"), pem);
        ca = dir.resolve("edge-ca.pem");
        Files.writeString(ca, pem);
        PackagedMesh.await("searxng.zurag.be answers over verified TLS", Duration.ofSeconds(30),
                () -> quietly(() -> page("searxng").contains(text("searxng"))));
        Curl plain = curl("-sS", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}",
                "--resolve", "searxng.zurag.be:80:" + address(ACE), "http://searxng.zurag.be/");
        assertEquals("308 https://searxng.zurag.be/", plain.out(), plain.toString());
        JsonNode edge = agentGet(ACE, "/v1/status").get("edge");
        assertEquals("[\"searxng.zurag.be\"]", edge.get("routes").toString(), edge.toString());
        assertTrue(edge.get("error").isNull(), edge.toString());
        assertNotNull(edge.get("loadedAt").asText());

        String status = mesh("status").out();
        assertTrue(status.contains(ACE + " edge: 1 route loaded at " + edge.get("loadedAt").asText() + ": searxng.zurag.be"), status);
        String roster = ok("roster");
        assertTrue(roster.lines().anyMatch(l -> l.strip().matches("searxng\\.zurag\\.be +" + address(ACE).replace(".", "\\.")
                + " +" + ACE + " +searxng +route +by " + ACE + "'s edge")), roster);
        PackagedMesh.Result unknown = mesh("route", "ca", "nosuch");
        assertEquals(1, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().contains("unknown node nosuch"), unknown.toString());
        PackagedMesh.Result noEdge = mesh("route", "ca", G14);
        assertEquals(1, noEdge.exit(), noEdge.toString());
        assertTrue(noEdge.err().contains("node " + G14 + " has no public domain, so it runs no edge"), noEdge.toString());
    }

    /** 3: route changes reload Caddy within 2 s of the push returning; the edge and every other container are kept. */
    @Test
    @Order(2)
    void routeChangesReloadWithinTwoSecondsAndReplaceNothing() throws Exception {
        InspectContainerResponse edgeBefore = edgeContainer();
        Map<String, String> before = containers();

        ok("assign", ACE, "whoami");
        ok("push", "--wait");
        long t0 = System.nanoTime();
        awaitWithin("whoami.zurag.be is served", 2, () -> page("whoami").contains(text("whoami")));
        ok("unassign", ACE, "searxng");
        ok("push", "--wait");
        awaitWithin("searxng.zurag.be is no longer served", 2, () -> !page("searxng").contains(text("searxng")));
        assertTrue(page("whoami").contains(text("whoami")));

        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            boolean add = i % 2 == 0;
            ok(add ? "assign" : "unassign", ACE, "searxng");
            ok("push", "--wait");
            long pushed = System.nanoTime();
            awaitWithin("searxng.zurag.be " + (add ? "served" : "refused") + " after change " + (i + 1), 2,
                    () -> page("searxng").contains(text("searxng")) == add);
            millis.add((System.nanoTime() - pushed) / 1_000_000);
        }
        System.out.println("EdgeIT: 10 route changes, ms from push --wait returning to served/refused: " + millis);
        InspectContainerResponse edgeAfter = edgeContainer();
        assertEquals(edgeBefore.getId(), edgeAfter.getId(), "the edge container was replaced");
        assertEquals(edgeBefore.getState().getStartedAt(), edgeAfter.getState().getStartedAt(), "the edge was restarted");
        Map<String, String> after = containers();
        List<String> replaced = new ArrayList<>();
        before.forEach((name, id) -> {
            if (after.containsKey(name) && !after.get(name).equals(id)) {
                replaced.add(name);
            }
        });
        assertEquals(List.of(), replaced, "containers replaced by route changes (" + (System.nanoTime() - t0) / 1_000_000 + " ms)");
    }

    /** 4: a configuration Caddy refuses is reported with Caddy's message; the routes it had keep answering. */
    @Test
    @Order(3)
    void aRefusedConfigurationIsReportedAndTheOldRoutesStillAnswer() throws Exception {
        ok("assign", ACE, "broken");
        PackagedMesh.Result push = mesh("push", "--wait", "--wait-timeout", "5");
        assertEquals(1, push.exit(), push.toString());
        assertTrue(push.toString().contains(ACE + ": edge failing: Caddy refused the routes: "), push.toString());
        assertTrue(push.toString().contains("unknown module: http.handlers.mesh_test_refused"), "Caddy's own message: " + push);

        JsonNode edge = awaitEdge(ACE, e -> !e.path("error").isNull());
        assertTrue(edge.get("error").asText().contains("unknown module: http.handlers.mesh_test_refused"), edge.toString());
        assertTrue(edge.get("pending").toString().contains(REFUSED), edge.toString());
        assertTrue(page("whoami").contains(text("whoami")), "the routes Caddy had still answer");
        String text = mesh("status").out();
        assertTrue(text.contains(ACE + " edge: ") && text.contains("; refused: Caddy refused the routes: ")
                && text.contains("; not served: " + REFUSED), text);
        PackagedMesh.Result status = mesh("status", "-o", "json");
        assertEquals(1, status.exit(), status.toString());
        JsonNode ace = MeshE2EIT.statusOf(json(status.out()), ACE);
        assertTrue(ace.get("state").asText().startsWith("edge failing: Caddy refused the routes: "), ace.toString());
        assertTrue(ace.get("state").asText().contains("mesh_test_refused"), ace.toString());

        ok("unassign", ACE, "broken");
        ok("push", "--wait");
        edge = awaitEdge(ACE, e -> e.path("error").isNull());
        assertTrue(!edge.get("routes").toString().contains(REFUSED), edge.toString());
    }

    /**
     * 5: an edge killed with SIGKILL comes back with the current routes, without a push: Caddy
     * restarts empty (its boot configuration holds only the admin API) and the agent loads the
     * routes again. Removed outright, the agent creates it again and loads them too.
     */
    @Test
    @Order(4)
    void aKilledEdgeComesBackWithItsRoutesWithoutAPush() throws Exception {
        int declarations = agentGet(ACE, "/v1/declarations").size();
        InspectContainerResponse before = edgeContainer();
        mesh.engine(ACE).killContainerCmd(before.getId()).withSignal("KILL").exec();

        PackagedMesh.await("the killed edge serves whoami.zurag.be again", Duration.ofSeconds(30),
                () -> quietly(() -> page("whoami").contains(text("whoami"))));
        InspectContainerResponse after = edgeContainer();
        assertTrue(after.getState().getRunning());
        assertTrue(!before.getState().getStartedAt().equals(after.getState().getStartedAt()), "the killed edge was started again");
        assertEquals("[\"whoami.zurag.be\"]", awaitEdge(ACE, e -> after.getId().equals(e.path("containerId").asText()))
                .get("routes").toString(), "exactly the current routes");

        mesh.engine(ACE).removeContainerCmd(after.getId()).withForce(true).exec();
        PackagedMesh.await("the removed edge is created again and serves whoami.zurag.be", Duration.ofSeconds(30),
                () -> quietly(() -> !edgeContainer().getId().equals(after.getId()) && page("whoami").contains(text("whoami"))));
        assertEquals(declarations, agentGet(ACE, "/v1/declarations").size(), "no push was made");
    }

    /**
     * 2: a module on a node without a public domain (g14) whose route names the domain zurag.be is
     * served through ace's edge, which proxies to g14 over the mesh addresses; the name resolves to
     * ace, and the roster says which edge serves it and from where.
     */
    @Test
    @Order(5)
    void aRouteToAComponentOnAnotherNodeIsServedThroughTheEdge() throws Exception {
        InspectContainerResponse edgeBefore = edgeContainer();
        ok("assign", G14, "elsewhere");
        ok("push", "--wait");
        long pushed = System.nanoTime();
        awaitWithin("elsewhere.zurag.be is served from g14 through ace's edge", 2,
                () -> page("elsewhere").contains(text("elsewhere")));
        System.out.println("EdgeIT: elsewhere.zurag.be (on " + G14 + ") served through " + ACE + "'s edge "
                + (System.nanoTime() - pushed) / 1_000_000 + " ms after push --wait returned");

        assertTrue(mesh.engine(G14).inspectContainerCmd("elsewhere.server").exec().getState().getRunning());
        assertTrue(containers().keySet().stream().noneMatch(n -> n.startsWith(G14 + "/route-proxy")), G14 + " runs no edge");
        JsonNode entry = entry(json(ok("roster", "-o", "json")), "elsewhere.zurag.be");
        assertEquals(address(ACE), entry.get("address").asText(), entry.toString());
        assertEquals(ACE, entry.get("node").asText(), entry.toString());
        String roster = ok("roster");
        assertTrue(roster.lines().anyMatch(l -> l.startsWith("elsewhere.zurag.be") && l.strip().endsWith("by " + ACE + "'s edge, from " + G14)), roster);
        assertEquals(edgeBefore.getId(), edgeContainer().getId(), "the edge was replaced");
    }

    /**
     * A wildcard route *.zurag.be, of a module on g3, answers every name under zurag.be that no other
     * route has, over verified TLS (Caddy's internal CA signs the wildcard); the exact names still win.
     */
    @Test
    @Order(6)
    void aWildcardRouteAnswersEveryOtherNameUnderTheDomain() throws Exception {
        ok("assign", G3, "wild");
        ok("push", "--wait");
        long pushed = System.nanoTime();
        awaitWithin("anything.zurag.be is served by the wildcard route", 2, () -> page("anything").contains(text("wild")));
        System.out.println("EdgeIT: *.zurag.be (on " + G3 + ") served " + (System.nanoTime() - pushed) / 1_000_000
                + " ms after push --wait returned");
        assertTrue(page("other-name").contains(text("wild")));
        assertTrue(page("whoami").contains(text("whoami")), "an exact route is not shadowed by the wildcard");
        assertTrue(page("elsewhere").contains(text("elsewhere")));
        assertEquals(ACE, entry(json(ok("roster", "-o", "json")), "*.zurag.be").get("node").asText());

        ok("unassign", G3, "wild");
        ok("push", "--wait");
        awaitWithin("anything.zurag.be is no longer served", 2, () -> !page("anything").contains(text("wild")));
        assertTrue(page("whoami").contains(text("whoami")));
    }

    static JsonNode entry(JsonNode roster, String name) {
        for (JsonNode e : roster) {
            if (name.equals(e.get("name").asText())) {
                return e;
            }
        }
        throw new AssertionError(name + " is not in the roster: " + roster);
    }

    // ---- helpers

    /** The page a verifying HTTPS client gets for R.zurag.be through ace's edge; "" when refused. */
    String page(String route) throws Exception {
        Curl c = curl("-sS", "--max-time", "3", "--cacert", ca.toString(),
                "--resolve", route + ".zurag.be:443:" + address(ACE), "https://" + route + ".zurag.be/");
        return c.exit() == 0 ? c.out() : "";
    }

    record Curl(int exit, String out, String err) {
    }

    static Curl curl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return new Curl(p.exitValue(), out.strip(), err.strip());
    }

    /** Fails unless the check holds within this many seconds of now. */
    static void awaitWithin(String what, int seconds, MeshE2EIT.Check check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!check.get()) {
            assertTrue(System.nanoTime() < deadline, what + ": not within " + seconds + " s");
            Thread.sleep(50);
        }
    }

    JsonNode awaitEdge(String node, java.util.function.Predicate<JsonNode> done) throws Exception {
        JsonNode[] last = new JsonNode[1];
        PackagedMesh.await("node " + node + "'s edge status", Duration.ofSeconds(15), () -> quietly(() -> {
            last[0] = agentGet(node, "/v1/status").get("edge");
            return last[0] != null && !last[0].isNull() && done.test(last[0]);
        }));
        return last[0];
    }

    static String text(String module) {
        return "mesh edge test page of " + module;
    }

    String address(String node) {
        return mesh.testbed(node).address();
    }

    InspectContainerResponse edgeContainer() {
        return mesh.engine(ACE).inspectContainerCmd(EDGE).exec();
    }

    Map<String, String> containers() {
        Map<String, String> ids = new TreeMap<>();
        for (String node : mesh.names()) {
            mesh.engine(node).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", node)).exec()
                    .forEach(c -> ids.put(node + "/" + c.getNames()[0].substring(1), c.getId()));
        }
        return ids;
    }

    void writeCatalogue() throws IOException {
        TestbedEdge.write(dir);
        page(dir, "searxng", 8080);
        page(dir, "whoami", 8081);
        page(dir, "broken", 8082);
        page(dir, "elsewhere", 8083, "elsewhere: {component: elsewhere.server, port: 8083, domain: zurag.be}");
        page(dir, "wild", 8084, "\"*\": {component: wild.server, port: 8084, domain: zurag.be}");
    }

    /** A module whose busybox httpd serves one page with its own text on PORT, routed as MODULE. */
    static void page(Path dir, String module, int port) throws IOException {
        page(dir, module, port, module + ": {component: " + module + ".server, port: " + port + "}");
    }

    /** The same, with its route as given. */
    static void page(Path dir, String module, int port, String route) throws IOException {
        Files.writeString(dir.resolve(module + ".yaml"), """
                module: %1$s
                components:
                  %1$s.server:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "mkdir -p /www && echo '%3$s' >/www/index.html && exec httpd -f -p %2$d -h /www"]
                    ports: [%2$d]
                    stop-timeout: 1s
                routes:
                  %4$s
                """.formatted(module, port, text(module), route));
    }

    PackagedMesh.Result mesh(String... args) {
        return mesh.mesh(args);
    }

    String ok(String... args) {
        PackagedMesh.Result r = mesh(args);
        assertEquals(0, r.exit(), () -> "mesh " + String.join(" ", args) + ": " + r);
        return r.out();
    }

    /** GET of the node's agent API, as the controller makes it (HTTPS, its client certificate). */
    JsonNode agentGet(String node, String path) throws IOException, InterruptedException {
        return mesh.agent(node, path);
    }
}
