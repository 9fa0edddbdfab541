package mesh.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import mesh.model.DeclarationJson;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledNode;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * InstallerIT installs mesh on a fresh simulated node with the packaged {@code mesh install}, run
 * inside the node's network namespace against its own engine and the test images, and uses the
 * mesh it raised through the config file alone (docs/design.md, "The controller is a process").
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InstallerIT {

    static InstalledNode target;
    /** The nodes that joined with the printed command (n2, n3), left running until the end. */
    static final List<InstalledNode> joined = new java.util.ArrayList<>();
    /** The mesh as it was before the seat's uninstall, which a reinstall over the kept data must bring back. */
    static MeshState beforeUninstall;
    /** The range n3 joins with ({@code mesh install --module-networks}), not the agent's default. */
    static final String N3_MODULE_NETWORKS = "10.214.0.0/16";

    @BeforeAll
    static void node() throws Exception {
        for (TestbedNodes.Node n : TestbedNodes.ours(3)) {
            InstalledMesh.clearNode(n, "mesh-installer-it");
        }
        TestbedNodes.Node n1 = TestbedNodes.ours(1).get(0);
        target = new InstalledNode(n1, Files.createTempDirectory("mesh-installer-it"));
    }

    @AfterAll
    static void cleanUp() throws Exception {
        for (InstalledNode t : joined) {
            t.close();
        }
        if (target != null) {
            target.close();
        }
    }

    static JsonNode json(PackagedMesh.Result r) throws Exception {
        assertEquals(0, r.exit(), r.toString());
        return DeclarationJson.MAPPER.readTree(r.out());
    }

    @Test
    @Order(1)
    void installRaisesAMeshWhoseControllerIsAProcessOfTheAgentAndAnswersWithTheConfigFileAlone() throws Exception {
        PackagedMesh.Result install = target.mesh(target.seatArgs());
        assertEquals(0, install.exit(), install.toString());
        for (String step : List.of("preflight", "agent", "store", "registry", "bundle", "controller", "pivot", "config")) {
            assertTrue(install.out().lines().anyMatch(l -> l.matches("\\[\\d/8\\] " + step + ": done in \\d+\\.\\d s")),
                    step + " not done:\n" + install);
        }
        Path config = target.home().resolve(".config/mesh/config");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(target.config().resolve("host.env"))));

        JsonNode nodes = json(target.mesh(List.of("node", "list", "-o", "json")));
        assertEquals(target.node.name(), nodes.get(0).get("name").asText(), nodes.toString());
        JsonNode catalogue = json(target.mesh(List.of("catalogue", "list", "-o", "json")));
        assertEquals(List.of("mesh-controller", "mesh-registry", "mesh-store"),
                java.util.stream.StreamSupport.stream(catalogue.spliterator(), false).map(m -> m.get("module").asText()).sorted().toList());

        Path smoke = target.root.resolve("smoke.yaml");
        Files.writeString(smoke, """
                module: smoke
                components:
                  smoke.web:
                    image: mesh-test/busybox:1
                    args: [httpd, -f, -p, "8080"]
                """);
        json(target.mesh(List.of("catalogue", "add", smoke.toString(), "-o", "json")));
        json(target.mesh(List.of("assign", target.node.name(), "smoke", "-o", "json")));
        json(target.mesh(List.of("push", "--wait", "-o", "json")));
        JsonNode status = json(target.mesh(List.of("status", "-o", "json")));
        assertTrue(status.toString().contains("smoke.web"), status.toString());

        // the controller is the agent's supervised process, not a container
        JsonNode record = DeclarationJson.MAPPER.readTree(
                target.state().resolve("host/processes/mesh-controller.serve.json").toFile());
        long pid = record.get("pid").asLong();
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "controller pid " + pid + " is not alive");
        try (var docker = TestbedNodes.client(target.node)) {
            assertTrue(docker.listContainersCmd().withShowAll(true).exec().stream()
                    .noneMatch(c -> String.join(",", c.getNames()).contains("controller")), "a controller container exists");
        }
    }

    static long controllerPid() throws Exception {
        JsonNode record = DeclarationJson.MAPPER.readTree(
                target.state().resolve("host/processes/mesh-controller.serve.json").toFile());
        return record.get("pid").asLong();
    }

    @Test
    @Order(2)
    void aSecondRunSaysEveryStepIsAlreadyDoneAndTouchesNoContainer() throws Exception {
        long pid = controllerPid();
        long since = System.currentTimeMillis() / 1000 - 1;
        PackagedMesh.Result again = target.mesh(target.seatArgs());
        assertEquals(0, again.exit(), again.toString());
        assertEquals(8, again.out().lines().filter(l -> l.matches("\\[\\d/8\\] \\w+: already done")).count(), again.toString());
        long until = System.currentTimeMillis() / 1000 + 1;
        try (var docker = TestbedNodes.client(target.node)) {
            List<String> events = new java.util.ArrayList<>();
            docker.eventsCmd().withSince(Long.toString(since)).withUntil(Long.toString(until))
                    .withEventTypeFilter(com.github.dockerjava.api.model.EventType.CONTAINER)
                    .exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Event>() {
                        @Override
                        public void onNext(com.github.dockerjava.api.model.Event e) {
                            events.add(e.getAction() + " " + e.getActor().getAttributes().get("name"));
                        }
                    }).awaitCompletion(30, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(List.of(), events.stream().filter(e -> !e.startsWith("exec_")).toList());
        }
        assertEquals(pid, controllerPid());
    }

    @Test
    @Order(3)
    void theControllerAnswersThroughoutAKilledAgentAndTheRestartedAgentAdoptsIt() throws Exception {
        long pid = controllerPid();
        java.util.Map<String, String> config = MeshState.envFile(target.home().resolve(".config/mesh/config"));
        List<String> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.concurrent.atomic.AtomicInteger answers = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean polling = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread poller = Thread.ofPlatform().daemon().start(() -> {
            while (polling.get()) {
                try {
                    MeshState.get(config.get("MESH_CONTROLLER"), config.get("MESH_TOKEN"), config.get("MESH_CA"), "/v1/mesh/nodes");
                    answers.incrementAndGet();
                } catch (Exception | AssertionError e) {
                    failures.add(java.time.Instant.now() + " " + e);
                }
                mesh.model.Poll.pause(java.time.Duration.ofMillis(200));
            }
        });
        try {
            long agent = Long.parseLong(Files.readString(target.state().resolve("agent.pid")).strip());
            ProcessHandle.of(agent).orElseThrow().destroyForcibly();
            PackagedMesh.await("the agent is gone", java.time.Duration.ofSeconds(20),
                    () -> ProcessHandle.of(agent).map(h -> !h.isAlive()).orElse(true));
            Thread.sleep(3000);   // the controller, alone, for a while
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the controller died with the agent");

            // the rerun starts the agent again, as systemd would; it adopts the controller
            PackagedMesh.Result again = target.mesh(target.seatArgs());
            assertEquals(0, again.exit(), again.toString());
            assertTrue(again.out().contains("the host agent did not answer: started it again"), again.toString());
            Thread.sleep(3000);   // a few passes of the restarted agent's loop
        } finally {
            polling.set(false);
            poller.join();
        }
        assertEquals(List.of(), failures, "the controller did not answer while the agent was down or restarting");
        assertTrue(answers.get() >= 20, "the controller answered " + answers.get() + " times");
        assertEquals(pid, controllerPid(), "the restarted agent adopted the controller");
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        assertEquals(1, MeshState.copies("mesh-controller.serve", target.state()), "one copy of the controller");
        json(target.mesh(List.of("status", "-o", "json")));
    }

    @Test
    @Order(4)
    void twoMoreNodesJoinWithThePrintedCommandAndOneRunsAnAssignedModule() throws Exception {
        List<TestbedNodes.Node> nodes = TestbedNodes.ours(3);
        for (TestbedNodes.Node n : nodes.subList(1, 3)) {
            InstalledNode other = new InstalledNode(n, Files.createTempDirectory("mesh-installer-it-" + n.name()));
            joined.add(other);
            PackagedMesh.Result added = target.mesh(List.of("node", "add", n.name(), "--address", n.address()));
            assertEquals(0, added.exit(), added.toString());
            String join = added.out().lines().filter(l -> l.strip().startsWith("mesh install --join ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no join line:\n" + added)).strip();
            List<String> args = new java.util.ArrayList<>(List.of(join.substring("mesh ".length()).split(" ")));
            args.addAll(List.of("--engine", n.dockerHost(), "--state-dir", other.state().toString(),
                    "--config-dir", other.config().toString()));
            if (n == nodes.get(2)) {
                args.addAll(List.of("--module-networks", N3_MODULE_NETWORKS));   // its module networks from a range of its own
            }
            PackagedMesh.Result done = other.mesh(args);
            assertEquals(0, done.exit(), done.toString());
            joinTokens.put(n.name(), args.get(args.indexOf("--token") + 1));
            String settings = Files.readString(other.config().resolve("host.env"));
            assertFalse(settings.contains("MESH_HOST_TOKEN"), "a joined agent runs with no token");
            assertEquals(n == nodes.get(2), settings.contains("\nMESH_HOST_NETWORKS=" + N3_MODULE_NETWORKS + "\n"), settings);
        }
        // the join token is spent: a second join with it is refused, saying so, as is a wrong one; nothing changes
        String seat = "https://" + target.node.address() + ":7700";
        // the controller's own looks (its alert watch, as mesh status) note each new agent's build in agent_builds once:
        // let them have heard both, so the snapshots below compare what the refused joins did and nothing else
        List<String> names = nodes.subList(1, 3).stream().map(TestbedNodes.Node::name).toList();
        PackagedMesh.await("the controller has noted the builds of " + names, java.time.Duration.ofSeconds(90), () -> {
            try (var c = storeSource().getConnection(); var q = c.prepareStatement(
                    "select count(*) from agent_builds where node = any (?)")) {
                q.setArray(1, c.createArrayOf("text", names.toArray()));
                var r = q.executeQuery();
                r.next();
                return r.getInt(1) == 2;
            } catch (Exception e) {
                return false;
            }
        });
        String before = storeSnapshot();
        for (TestbedNodes.Node n : nodes.subList(1, 3)) {
            assertJoinRefused(seat, n.name(), joinTokens.get(n.name()), "spent join token: node " + n.name() + "'s join token");
            assertJoinRefused(seat, n.name(), "0".repeat(64), "spent join token");
        }
        assertJoinRefused(seat, "nosuch", "0".repeat(64), "wrong join token: there is no node named 'nosuch'");
        assertEquals("", mesh.controller.StoreSnapshot.diff(before, storeSnapshot()), "a refused join changes nothing");
        TestbedNodes.Node n3 = nodes.get(2);
        Path web = target.root.resolve("web.yaml");
        Files.writeString(web, """
                module: web2
                components:
                  web2.server:
                    image: mesh-test/busybox:1
                    args: [httpd, -f, -p, "8080"]
                """);
        json(target.mesh(List.of("catalogue", "add", web.toString(), "-o", "json")));
        json(target.mesh(List.of("assign", n3.name(), "web2", "-o", "json")));
        json(target.mesh(List.of("push", "--wait", "-o", "json")));
        JsonNode status = json(target.mesh(List.of("status", "-o", "json")));
        for (TestbedNodes.Node n : nodes) {
            assertTrue(status.toString().contains("\"" + n.name() + "\""), n.name() + " not in the status: " + status);
        }
        try (var docker = TestbedNodes.client(n3)) {
            var web2 = docker.listContainersCmd().exec().stream().filter(c -> List.of(c.getNames()).contains("/web2.server"))
                    .findFirst().orElseThrow(() -> new AssertionError("web2.server does not run on " + n3.name()));
            List<String> addresses = web2.getNetworkSettings().getNetworks().values().stream()
                    .map(com.github.dockerjava.api.model.ContainerNetwork::getIpAddress).toList();
            mesh.model.Cidr range = mesh.model.Cidr.parse(N3_MODULE_NETWORKS, "--module-networks");
            assertTrue(!addresses.isEmpty() && addresses.stream().allMatch(a -> range.contains(
                    mesh.model.Cidr.enclosing(mesh.model.Cidr.address(a), 32))),
                    "web2's module network is in " + n3.name() + "'s --module-networks " + range + ": " + addresses);
        }
        try (var docker = TestbedNodes.client(nodes.get(1))) {
            assertTrue(docker.listContainersCmd().exec().stream().noneMatch(c -> List.of(c.getNames()).contains("/web2.server")),
                    "web2.server runs on " + nodes.get(1).name() + " too");
        }
        // the store, read in full after the install, the joins and the pushes, holds no agent token of any form
        String all = storeSnapshot();
        assertTrue(all.contains("table nodes"), all);
        assertFalse(all.contains("sealed:v1:"), "no sealed agent token: " + all);
        for (String token : joinTokens.values()) {
            assertFalse(all.contains(token), "a join token is in the store in clear: " + all);
            assertFalse(all.contains(sha256(token)), "a spent join token's hash is kept: " + all);
        }
        try (var c = storeSource().getConnection(); var r = c.createStatement().executeQuery(
                "select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'nodes'"
                        + " order by 1")) {
            List<String> columns = new java.util.ArrayList<>();
            while (r.next()) {
                columns.add(r.getString(1));
            }
            assertFalse(columns.contains("agent_token"), columns.toString());
            assertTrue(columns.contains("join_token_hash"), columns.toString());
        }
    }

    /** The join tokens the join lines carried, by node. */
    static final java.util.Map<String, String> joinTokens = new java.util.TreeMap<>();

    /** POST /v1/join to the seat's controller, trusting the mesh CA alone, is refused (401) with {@code message}. */
    static void assertJoinRefused(String seat, String node, String token, String message) throws Exception {
        var ca = mesh.trust.Pem.certificate(target.state().resolve("tls/ca.crt"));
        var http = java.net.http.HttpClient.newBuilder().sslContext(mesh.trust.TlsContexts.trusting(ca)).build();
        var key = mesh.trust.MeshCa.newKey();
        String body = DeclarationJson.MAPPER.writeValueAsString(new mesh.wire.JoinRequest(node, mesh.trust.Pem.text(key.getPublic())));
        var answer = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(seat + "/v1/join"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(401, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains(message), answer.body());
    }

    /** The seat's store, as its controller reaches it (the password the installer made). */
    static javax.sql.DataSource storeSource() throws Exception {
        var ds = new org.postgresql.ds.PGSimpleDataSource();
        ds.setURL("jdbc:postgresql://" + target.node.address() + ":5432/mesh");
        ds.setUser("mesh");
        ds.setPassword(MeshState.envFile(target.state().resolve("install/secrets.env")).get("MESH_STORE_PASSWORD"));
        return ds;
    }

    static String storeSnapshot() throws Exception {
        return mesh.controller.StoreSnapshot.of(storeSource());
    }

    static String sha256(String token) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    @Order(5)
    void uninstallLeavesNoMeshProcessContainerOrStateAndKeepsTheStoresVolume() throws Exception {
        beforeUninstall = MeshState.of(target);
        PackagedMesh.Result gone = target.mesh(List.of("uninstall", "--state-dir", target.state().toString(),
                "--config-dir", target.config().toString()));
        assertEquals(0, gone.exit(), gone.toString());
        assertTrue(gone.out().contains("kept volume mesh-store_data"), gone.toString());
        assertEquals(List.of(), target.processes().stream().map(h -> h.info().commandLine().orElse("?")).toList());
        assertTrue(!Files.exists(target.state().resolve("install/steps")) && !Files.exists(target.state().resolve("host/processes"))
                && !Files.exists(target.config().resolve("host.env")) && !Files.exists(target.home().resolve(".config/mesh/config")));
        Path secrets = target.state().resolve("install/secrets.env");
        assertTrue(gone.out().contains("kept install secrets " + secrets), gone.toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets)));
        try (var docker = TestbedNodes.client(target.node)) {
            assertEquals(List.of(), docker.listContainersCmd().withShowAll(true)
                    .withLabelFilter(java.util.Map.of("mesh.node", target.node.name())).exec());
            assertTrue(docker.listVolumesCmd().exec().getVolumes().stream().anyMatch(v -> v.getName().equals("mesh-store_data")));
        }
    }

    @Test
    @Order(6)
    void aReinstallOverTheKeptDataBringsTheSameNodesAndCatalogueBack() throws Exception {
        PackagedMesh.Result again = target.mesh(target.seatArgs());
        assertEquals(0, again.exit(), again.toString());
        MeshState after = MeshState.of(target);
        assertEquals(3, after.nodes().size(), after.nodes().toString());
        assertEquals(5, after.catalogue().size(), "the built-in three and the two added before: " + after.catalogue());
        assertEquals(beforeUninstall.nodes(), after.nodes(), "nodes");
        assertEquals(beforeUninstall.catalogue(), after.catalogue(), "catalogue");
        assertEquals(beforeUninstall.roster(), after.roster(), "roster");
        assertEquals(beforeUninstall.containers(), after.containers(), "the seat's containers");
        assertEquals(beforeUninstall.processes(), after.processes(), "the seat's processes");
        PackagedMesh.Result status = target.mesh(List.of("status"));
        assertEquals(0, status.exit(), status.toString());
    }
}
