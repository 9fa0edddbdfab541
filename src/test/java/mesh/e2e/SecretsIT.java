package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * SecretsIT: secrets (docs/trust.md, "Secrets") on a mesh raised with {@code mesh install} and {@code --join} ({@link InstalledMesh}).
 * A secret used by one component of a module on n2 reaches that container's environment and nothing
 * else in clear: not the store (a full {@code pg_dump}), not a file under any node's state folder
 * (the seat's {@code install/} folder aside: it is where the keys are kept, 0600, by design), not
 * {@code mesh host history -o json} nor the agents' records API; neither are the admin token and the
 * store's password. Setting it again replaces exactly the component that uses it, and the preview says
 * why. Bad input is refused, naming what was wrong, and changes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class SecretsIT {

    static final List<String> NODES = List.of("n1", "n2", "n3");
    static final String IMAGE = "mesh-test/busybox:1";
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    InstalledMesh mesh;
    Path dir;
    final String first = "first-" + System.nanoTime() + "-value";
    final String second = "second-" + System.nanoTime() + "-value";

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(3);
        dir = Files.createTempDirectory("mesh-secrets");
        Files.writeString(dir.resolve("sxapp.yaml"), "module: sxapp\ncomponents:\n"
                + "  sxapp.api:\n    image: " + IMAGE + "\n    args: [sh, -c, \"" + LOOP + "\"]\n"
                + "    env: {MODE: api, DB_PASSWORD: {secret: db-password}}\n    stop-timeout: 1s\n"
                + "  sxapp.worker:\n    image: " + IMAGE + "\n    args: [sh, -c, \"" + LOOP + "\"]\n"
                + "    env: {MODE: worker}\n    stop-timeout: 1s\n");
        Files.writeString(dir.resolve("sxother.yaml"), "module: sxother\ncomponents:\n"
                + "  sxother.server:\n    image: " + IMAGE + "\n    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 1s\n");
        mesh.ok("catalogue", "add", dir.toString());
        PackagedMesh.Result set = mesh.meshWithInput(first + "\n", "secret", "set", "sxapp", "db-password");
        assertEquals(0, set.exit(), set.toString());
        assertTrue(set.out().contains("secret db-password of module sxapp set, version 1"), set.out());
        mesh.ok("assign", "n2", "sxapp");
        mesh.ok("assign", "n3", "sxother");
        mesh.ok("push", "--wait", "--wait-timeout", "120");
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
        }
    }

    @Test
    @Order(1)
    void theValueReachesOnlyTheContainerThatUsesItAndNoStoreRowFileOrHistory() throws Exception {
        assertEquals(first, exec("n2", "sxapp.api", "sh", "-c", "printf %s \"$DB_PASSWORD\""), "the container sees the value");
        assertEquals("", exec("n2", "sxapp.worker", "sh", "-c", "printf %s \"$DB_PASSWORD\""), "the other component does not");

        JsonNode listed = mesh.json("secret", "list", "sxapp");
        assertEquals(1, listed.size(), listed.toString());
        assertEquals("db-password", listed.get(0).get("name").asText());
        assertEquals(1, listed.get(0).get("version").asInt());
        assertEquals("admin", listed.get(0).get("setBy").asText());

        assertNowhereInClear(List.of(first));
    }

    @Test
    @Order(2)
    void settingItAgainReplacesExactlyTheComponentThatUsesItAndThePreviewSaysWhy() throws Exception {
        Map<String, String> before = containerIds();
        PackagedMesh.Result set = mesh.meshWithInput(second, "secret", "set", "sxapp", "db-password");
        assertEquals(0, set.exit(), set.toString());
        assertTrue(set.out().contains("version 2"), set.out());

        String preview = mesh.ok("push", "--dry-run");
        assertTrue(preview.contains("replace sxapp.api (sxapp): secret db-password changed"), preview);
        assertFalse(preview.contains("sxapp.worker (sxapp):"), preview);
        assertFalse(preview.contains(second), preview);

        mesh.ok("push", "--wait", "--wait-timeout", "120");
        Map<String, String> after = containerIds();
        assertEquals(before.keySet(), after.keySet(), "the same containers run");
        before.forEach((name, id) -> {
            if (name.equals("n2/sxapp.api")) {
                assertNotEquals(id, after.get(name), name + " was replaced");
            } else {
                assertEquals(id, after.get(name), name + " was left alone");
            }
        });
        assertEquals(second, exec("n2", "sxapp.api", "sh", "-c", "printf %s \"$DB_PASSWORD\""));
        assertNowhereInClear(List.of(first, second));

        // the same value again: a new version, but the same keyed hash, so nothing is replaced
        mesh.meshWithInput(second, "secret", "set", "sxapp", "db-password");
        assertTrue(mesh.ok("push", "--dry-run").contains("would create 0, replace 0, remove 0"), "same value, nothing replaced");
    }

    @Test
    @Order(3)
    void badInputIsRefusedNamingWhatWasWrongAndChangesNothing() throws Exception {
        String secrets = mesh.ok("secret", "list", "-o", "json");
        Map<String, Long> generations = generations();

        PackagedMesh.Result argv = mesh.mesh("secret", "set", "sxapp", "api-key", "hunter2-on-the-command-line");
        assertEquals(2, argv.exit(), argv.toString());
        assertTrue(argv.err().contains("takes no value on the command line"), argv.err());

        PackagedMesh.Result inUse = mesh.mesh("secret", "remove", "sxapp", "db-password");
        assertNotEquals(0, inUse.exit(), inUse.toString());
        assertTrue(inUse.err().contains("secret db-password of module sxapp is used by component sxapp.api (env DB_PASSWORD)"),
                inUse.err());

        PackagedMesh.Result unknownModule = mesh.meshWithInput("v", "secret", "set", "nosuch", "x");
        assertNotEquals(0, unknownModule.exit(), unknownModule.toString());
        assertTrue(unknownModule.err().contains("module nosuch is not in the catalogue"), unknownModule.err());

        Path bad = Files.createTempDirectory("mesh-secrets-bad");
        try {
            Files.writeString(bad.resolve("sxbad.yaml"), "module: sxbad\ncomponents:\n  sxbad.server:\n    image: " + IMAGE
                    + "\n    args: [sh, -c, \"" + LOOP + "\"]\n    env: {TOKEN: {secret: nope}}\n");
            mesh.ok("catalogue", "add", bad.toString());
            mesh.ok("assign", "n2", "sxbad");
            PackagedMesh.Result plan = mesh.mesh("push", "--dry-run");
            assertNotEquals(0, plan.exit(), plan.toString());
            assertTrue(plan.err().contains("component sxbad.server (sxbad): env TOKEN uses secret nope, which module sxbad"
                    + " does not have"), plan.err());
            PackagedMesh.Result push = mesh.mesh("push");
            assertNotEquals(0, push.exit(), push.toString());
            mesh.ok("unassign", "n2", "sxbad");
            mesh.ok("catalogue", "remove", "sxbad");
        } finally {
            PackagedMesh.deleteTree(bad);
        }
        assertEquals(secrets, mesh.ok("secret", "list", "-o", "json"), "no secret changed");
        assertEquals(generations, generations(), "nothing was sent");
    }

    @Test
    @Order(4)
    void anAgentRestartedStartsTheComponentAgainFromItsSealedRecord() throws Exception {
        // the agent is killed, the container removed behind its back: the new agent has only its records
        mesh.killAgent("n2");
        mesh.engine("n2").removeContainerCmd("sxapp.api").withForce(true).exec();
        mesh.startAgent("n2", Map.of("MESH_HOST_INTERVAL", "1s"));
        PackagedMesh.await("sxapp.api runs again on n2", java.time.Duration.ofSeconds(60), () -> {
            try {
                return second.equals(exec("n2", "sxapp.api", "sh", "-c", "printf %s \"$DB_PASSWORD\""));
            } catch (Exception | AssertionError e) {
                return false;
            }
        });
        assertNowhereInClear(List.of(first, second));
    }

    @Test
    @Order(5)
    void aKeyRotationSealsEverySecretAgainAndReplacesNothing() throws Exception {
        Path keyFile = mesh.seat().state().resolve("install/secrets.key");
        String keysBefore = Files.readString(keyFile);
        Map<String, String> ids = containerIds();
        JsonNode rotated = mesh.json("secret", "rotate-key");
        assertTrue(rotated.get("resealed").asInt() >= 2, rotated.toString());   // db-password and mesh-store's store-password
        String keysAfter = Files.readString(keyFile);
        assertNotEquals(keysBefore, keysAfter);
        assertEquals(1, keysAfter.lines().filter(l -> l.startsWith("seal ")).count(), "the old seal key is dropped");
        assertEquals(keysBefore.lines().filter(l -> l.startsWith("digest ")).toList(),
                keysAfter.lines().filter(l -> l.startsWith("digest ")).toList(), "the digest key is kept");
        assertTrue(mesh.ok("push", "--dry-run").contains("would create 0, replace 0, remove 0"), "nothing is replaced");
        mesh.ok("push", "--wait", "--wait-timeout", "120");
        assertEquals(ids, containerIds(), "nothing was replaced");
        assertEquals(second, exec("n2", "sxapp.api", "sh", "-c", "printf %s \"$DB_PASSWORD\""));
    }

    // ---- where a value must not be

    /** No value, nor the admin token, nor the store password, in the store, any node's state files, or any history view. */
    private void assertNowhereInClear(List<String> values) throws Exception {
        Map<String, String> install = ConfigFile.read(mesh.seat().state().resolve("install/secrets.env"));
        String token = install.get("MESH_CONTROLLER_TOKEN");
        String password = install.get("MESH_STORE_PASSWORD");
        assertNotNull(token);
        assertNotNull(password);
        Map<String, String> needles = new TreeMap<>();
        for (int i = 0; i < values.size(); i++) {
            needles.put("secret value " + (i + 1), values.get(i));
        }
        needles.put("admin token", token);
        needles.put("store password", password);

        byte[] dump = pgDump(password);
        assertTrue(dump.length > 10_000 && new String(dump, StandardCharsets.ISO_8859_1).contains("CREATE TABLE public.secrets"),
                "a full dump was taken");
        needles.forEach((what, v) -> assertFalse(contains(dump, v), "the store's dump holds the " + what));

        for (String n : NODES) {
            Path state = mesh.node(n).state();
            Path keys = mesh.seat().state().resolve("install");
            List<Path> files;
            try (Stream<Path> all = Files.walk(state)) {
                files = all.filter(Files::isRegularFile).filter(p -> !p.startsWith(keys)).toList();
            }
            assertFalse(files.isEmpty());
            for (Path f : files) {
                byte[] bytes;
                try {
                    bytes = Files.readAllBytes(f);
                } catch (IOException e) {
                    continue;   // a file removed while walking
                }
                needles.forEach((what, v) -> assertFalse(contains(bytes, v), f + " on " + n + " holds the " + what));
            }
            String history = history(n);
            needles.forEach((what, v) -> assertFalse(history.contains(v), "host history -o json on " + n + " holds the " + what));
            for (JsonNode k : mesh.agent(n, "/v1/declarations")) {
                String record = mesh.agent(n, "/v1/declarations/" + k.get("generation").asLong()).toString();
                needles.forEach((what, v) -> assertFalse(record.contains(v), "a declaration record of " + n + " holds the " + what));
            }
        }
        // exit 1 is "needs attention" (a component restarted a moment ago is still starting): the document is whole
        PackagedMesh.Result looked = mesh.mesh("status", "-o", "json");
        assertTrue(looked.exit() == 0 || looked.exit() == 1, looked.toString());
        String status = looked.out();
        assertTrue(status.startsWith("["), looked.toString());
        needles.forEach((what, v) -> assertFalse(status.contains(v), "mesh status holds the " + what));
    }

    private byte[] pgDump(String password) throws Exception {
        String address = mesh.testbed("n1").address();
        Path out = Files.createTempFile("mesh-secrets", ".dump");
        try {
            ProcessBuilder b = new ProcessBuilder("/usr/lib/postgresql/15/bin/pg_dump", "-h", address, "-p", "5432", "-U", "mesh",
                    "mesh").redirectOutput(out.toFile()).redirectErrorStream(false);
            b.environment().put("PGPASSWORD", password);
            Process p = b.start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "pg_dump ended");
            assertEquals(0, p.exitValue(), "pg_dump: " + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            return Files.readAllBytes(out);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static boolean contains(byte[] haystack, String needle) {
        return new String(haystack, StandardCharsets.ISO_8859_1).contains(new String(needle.getBytes(StandardCharsets.UTF_8),
                StandardCharsets.ISO_8859_1));
    }

    // ---- the mesh's state

    private Map<String, String> containerIds() {
        Map<String, String> ids = new TreeMap<>();
        for (String n : NODES) {
            mesh.engine(n).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", n)).exec()
                    .forEach(c -> ids.put(n + "/" + c.getNames()[0].substring(1), c.getId()));
        }
        return ids;
    }

    private Map<String, Long> generations() throws Exception {
        Map<String, Long> g = new TreeMap<>();
        for (String n : NODES) {
            g.put(n, mesh.agent(n, "/v1/status").get("generation").asLong());
        }
        return g;
    }

    private String exec(String node, String container, String... command) throws Exception {
        var engine = mesh.engine(node);
        String id = engine.execCreateCmd(container).withCmd(command).withAttachStdout(true).withAttachStderr(true).exec().getId();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean done = engine.execStartCmd(id).exec(new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame frame) {
                out.writeBytes(frame.getPayload());
            }
        }).awaitCompletion(30, TimeUnit.SECONDS);
        assertTrue(done, "exec in " + container + " on " + node + " ended within 30 s");
        return out.toString(StandardCharsets.UTF_8);
    }

    /** {@code mesh host history -o json} on a node, from that node's agent's state folder. */
    private String history(String node) {
        String state = ConfigFile.read(mesh.node(node).config().resolve("host.env")).get("MESH_HOST_STATE_DIR");
        PackagedMesh.Result r = PackagedMesh.run(Map.of("MESH_HOST_STATE_DIR", state), "host", "history", "-o", "json");
        assertEquals(0, r.exit(), r.toString());
        List<String> out = new ArrayList<>(List.of(r.out()));
        return String.join("\n", out);
    }
}
