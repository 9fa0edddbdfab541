package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
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
 * RollbackIT is {@code mesh rollback PUSH} (docs/design.md, "Rollback") on a mesh of three test-bed nodes
 * raised with {@code mesh install} and {@code --join} ({@link InstalledMesh}). Five pushes change an
 * image, env, binds and placements on the three nodes and remove a module from the catalogue; a
 * rollback to the second makes every node's newest declaration the one it held at the second push (read
 * back from the agents' records), replaces exactly the containers whose spec differs between the two,
 * keeps every volume and the data in it, brings the removed module back and leaves the store planning
 * the same; over the push budget (2 here) it stops until {@code --yes}. A rollback to the fourth then
 * brings back a module the first rollback took out of the catalogue. An unknown push, an audit row
 * that is not a push and a PUSH that is not a number are refused, naming what was wrong, with nothing
 * sent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class RollbackIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> NODES = List.of("n1", "n2", "n3");
    static final String IMAGE = "mesh-test/busybox:1";
    /** The same image under a second name, tagged on n2's engine: a different image to the spec. */
    static final String IMAGE_2 = "mesh-test/rollback-busybox:2";
    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";

    InstalledMesh mesh;
    Path dir;
    /** The ids of the five pushes, in order. */
    final List<Long> pushes = new ArrayList<>();

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(3);
        // a budget of 2, set before the five pushes, so that each of their inputs holds the controller as it is now
        mesh.controllerEnv(Map.of("MESH_PUSH_BUDGET", "2"));
        mesh.engine("n2").tagImageCmd(IMAGE, "mesh-test/rollback-busybox", "2").exec();
        dir = Files.createTempDirectory("mesh-rollback");
        // 1: rbweb on n2 (a volume), rbapp on n3
        web("V1", IMAGE);
        app("A1", false);
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("assign", "n2", "rbweb");
        mesh.ok("assign", "n3", "rbapp");
        push();
        // 2: env and binds change, a module added on n3
        web("V2", IMAGE);
        app("A1", true);
        plain("rbcache");
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("assign", "n3", "rbcache");
        push();
        // 3: rbweb's image and rbapp's env change
        web("V2", IMAGE_2);
        app("A3", true);
        mesh.ok("catalogue", "add", dir.toString());
        push();
        // 4: placements: rbcache unassigned, rbextra added on n1
        plain("rbextra");
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("unassign", "n3", "rbcache");
        mesh.ok("assign", "n1", "rbextra");
        push();
        // 5: rbcache leaves the catalogue, rbapp no longer binds, rbweb's env changes
        mesh.ok("catalogue", "remove", "rbcache");
        Files.delete(dir.resolve("rbcache.yaml"));
        web("V5", IMAGE_2);
        app("A3", false);
        mesh.ok("catalogue", "add", dir.toString());
        push();
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            try {
                mesh.engine("n2").removeImageCmd(IMAGE_2).withForce(true).exec();
            } catch (RuntimeException e) {
                System.err.println("RollbackIT: could not untag " + IMAGE_2 + " on n2: " + e.getMessage());
            }
            mesh.close();
        }
        if (dir != null) {
            PackagedMesh.deleteTree(dir);
        }
    }

    @Test
    @Order(1)
    void aRollbackToTheSecondPushRestoresItsDeclarationsReplacingExactlyWhatDiffersAndKeepingTheData() throws Exception {
        long second = pushes.get(1);
        Map<String, JsonNode> then = new TreeMap<>();
        Map<String, JsonNode> now = new TreeMap<>();
        for (String n : NODES) {
            then.put(n, declarationAt(n, second));
            now.put(n, declarationAt(n, Long.MAX_VALUE));
        }
        Map<String, String> ids = containerIds();
        Map<String, Set<String>> volumes = volumes();
        String marker = "kept-" + System.nanoTime();
        exec("n2", "rbweb.server", "sh", "-c", "echo " + marker + " > /data/marker");
        Map<String, Long> generations = generations();
        long controller = mesh.controllerPid();

        // the preview: what changes, the catalogue's changes, and data that is not rolled back
        String preview = mesh.ok("rollback", Long.toString(second), "--dry-run");
        assertTrue(preview.contains("rolling back to push " + second + ": the catalogue and placements as they were then"), preview);
        assertTrue(preview.contains("module rbcache comes back to the catalogue (it was removed after push " + second + ")"), preview);
        assertTrue(preview.contains("module rbextra leaves the catalogue (it was added after push " + second + ")"), preview);
        assertTrue(preview.contains("data is not rolled back: rbweb.server on n2 goes from image " + IMAGE_2 + " to image "
                + IMAGE + " on its volumes as they are (data)"), preview);
        assertTrue(preview.contains("  replace rbweb.server (rbweb): "), preview);
        assertTrue(preview.contains("  replace rbapp.server (rbapp): "), preview);
        assertTrue(preview.contains("  create  rbcache.server"), preview);
        assertTrue(preview.contains("  remove  rbextra.server"), preview);
        assertTrue(preview.contains("would create 1, replace 2, remove 1 and leave "), preview);
        assertEquals(generations, generations(), "a dry run sends nothing");
        assertTrue(mesh.ok("catalogue", "list").contains("rbextra"), "a dry run stores nothing");

        // the budget (2) counts the rollback's replacements and removals: 3 stop, so it needs --yes
        PackagedMesh.Result over = mesh.mesh("rollback", Long.toString(second));
        assertEquals(1, over.exit(), over.toString());
        assertTrue(over.err().contains("this push would replace or remove 3 containers, more than the budget of 2"), over.toString());
        assertEquals(generations, generations(), "over the budget, nothing was sent");
        assertTrue(mesh.ok("catalogue", "list").contains("rbextra"), "over the budget, nothing was stored");

        JsonNode report = mesh.json("rollback", Long.toString(second), "--yes", "--wait");
        assertEquals(2, report.get("replacements").asInt(), report.toString());
        assertEquals(1, report.get("removals").asInt(), report.toString());
        long rollback = newestAudit("rollback");
        for (String n : NODES) {
            JsonNode after = declarationAt(n, Long.MAX_VALUE);
            assertEquals(rollback, after.get("push").get("id").asLong(), n + "'s newest declaration names the rollback");
            assertEquals(content(then.get(n)), content(after), n + " holds exactly what push " + second + " gave it");
        }

        // exactly the containers whose spec differs between the two were replaced; the others kept their ids
        Map<String, String> idsAfter = containerIds();
        Set<String> replaced = new TreeSet<>();
        Set<String> kept = new TreeSet<>();
        for (String n : NODES) {
            Map<String, JsonNode> before = components(now.get(n));
            components(then.get(n)).forEach((name, spec) -> {
                String key = n + "/" + name;
                if (spec.equals(before.get(name))) {
                    kept.add(key);
                    assertEquals(ids.get(key), idsAfter.get(key), key + "'s spec is the same: its container is not replaced");
                } else if (before.containsKey(name)) {
                    replaced.add(key);
                    assertFalse(ids.get(key).equals(idsAfter.get(key)), key + "'s spec differs: replaced");
                }
            });
        }
        assertEquals(Set.of("n2/rbweb.server", "n3/rbapp.server"), replaced);
        assertTrue(kept.containsAll(Set.of("n1/mesh-store.postgres", "n1/mesh-registry.registry")), kept.toString());
        assertEquals(controller, mesh.controllerPid(), "the controller's process, unchanged since push 2, is not restarted");
        assertTrue(idsAfter.containsKey("n3/rbcache.server"), "rbcache, removed from the catalogue since, is back: " + idsAfter);
        assertFalse(idsAfter.containsKey("n1/rbextra.server"), "rbextra, added since, is gone: " + idsAfter);
        assertEquals(idsAfter.keySet(), new TreeSet<>(then.entrySet().stream()
                .flatMap(e -> components(e.getValue()).keySet().stream().map(c -> e.getKey() + "/" + c)).toList()));

        // every volume kept, with its data
        Map<String, Set<String>> volumesAfter = volumes();
        for (String n : NODES) {
            assertTrue(volumesAfter.get(n).containsAll(volumes.get(n)), n + " keeps every volume: " + volumes + " " + volumesAfter);
        }
        assertEquals(marker, exec("n2", "rbweb.server", "cat", "/data/marker").strip(), "the replaced rbweb reads its data");

        // the store plans the same: a push after it sends nothing
        String catalogue = mesh.ok("catalogue", "list");
        assertTrue(catalogue.contains("rbcache") && !catalogue.contains("rbextra"), catalogue);
        for (JsonNode n : mesh.json("push", "--dry-run").get("nodes")) {
            assertEquals("unchanged", n.get("outcome").asText(), "a push after the rollback does not undo it: " + n);
        }
        // the rollback is a push that can be rolled back to, as are the five; the agents' history names it
        JsonNode listed = mesh.json("rollback", "--list");
        Set<Long> listedIds = new TreeSet<>();
        listed.forEach(k -> listedIds.add(k.get("push").asLong()));
        assertTrue(listedIds.containsAll(pushes) && listedIds.contains(rollback), listed.toString());
        assertEquals(second, listed.get(0).get("rollbackOf").asLong(), "newest first: " + listed);
        String history = history("n2");
        assertTrue(history.lines().reduce((a, b) -> b).orElseThrow().endsWith("(push " + rollback + ")"), history);
        assertTrue(mesh.ok("audit").lines().anyMatch(l -> l.startsWith(rollback + " ") && l.contains("rolled back to push " + second)));
    }

    @Test
    @Order(2)
    void aRollbackBringsBackAModuleRemovedFromTheCatalogueSince() throws Exception {
        long fourth = pushes.get(3);
        assertFalse(mesh.ok("catalogue", "list").contains("rbextra"), "the first rollback took rbextra out of the catalogue");
        JsonNode report = mesh.json("rollback", Long.toString(fourth), "--yes", "--wait");
        assertTrue(report.get("notes").toString().contains("module rbextra comes back to the catalogue"), report.toString());
        for (String n : NODES) {
            assertEquals(content(declarationAt(n, fourth)), content(declarationAt(n, Long.MAX_VALUE)), n + " holds push 4's");
        }
        assertTrue(containerIds().containsKey("n1/rbextra.server"), "rbextra runs on n1 again");
        assertFalse(containerIds().containsKey("n3/rbcache.server"), "rbcache was unassigned at push 4");
        JsonNode module = mesh.json("catalogue", "show", "rbextra");
        assertEquals("n1", module.get("taken").asText(), module.toString());
    }

    @Test
    @Order(3)
    void anUnknownPushIsAClearErrorAndNothingChanges() throws Exception {
        Map<String, Long> generations = generations();
        String catalogue = mesh.ok("catalogue", "list");
        PackagedMesh.Result unknown = mesh.mesh("rollback", "999999");
        assertEquals(1, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().contains("push 999999 is not in the audit trail; 'mesh rollback --list' shows the pushes"
                + " that can be rolled back to; nothing was changed"), unknown.toString());
        long notAPush = 0;
        for (JsonNode e : mesh.json("audit")) {
            if (e.get("verb").asText().equals("catalogue remove")) {
                notAPush = e.get("id").asLong();
            }
        }
        PackagedMesh.Result other = mesh.mesh("rollback", Long.toString(notAPush));
        assertEquals(1, other.exit(), other.toString());
        assertTrue(other.err().contains("audit record " + notAPush + " is a 'catalogue remove', not a push"), other.toString());
        PackagedMesh.Result word = mesh.mesh("rollback", "latest");
        assertEquals(2, word.exit(), word.toString());
        assertTrue(word.err().contains("PUSH is a push's id, a number as 'mesh rollback --list' shows it; got 'latest'"),
                word.toString());
        assertEquals(generations, generations(), "nothing was sent");
        assertEquals(catalogue, mesh.ok("catalogue", "list"), "nothing was stored");
    }

    // ---- the pushes' inputs

    private void web(String value, String image) throws Exception {
        Files.writeString(dir.resolve("rbweb.yaml"), "module: rbweb\ncomponents:\n  rbweb.server:\n    image: " + image
                + "\n    args: [sh, -c, \"" + LOOP + "\"]\n    env: {V: " + value + "}\n    volumes: {data: /data}\n"
                + "    stop-timeout: 1s\n");
    }

    private void app(String value, boolean binds) throws Exception {
        Files.writeString(dir.resolve("rbapp.yaml"), "module: rbapp\ncomponents:\n  rbapp.server:\n    image: " + IMAGE
                + "\n    args: [sh, -c, \"" + LOOP + "\"]\n    env: {A: " + value + "}\n"
                + (binds ? "    binds: [rbweb.internal]\n" : "") + "    stop-timeout: 1s\n");
    }

    private void plain(String module) throws Exception {
        Files.writeString(dir.resolve(module + ".yaml"), "module: " + module + "\ncomponents:\n  " + module + ".server:\n"
                + "    image: " + IMAGE + "\n    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 1s\n");
    }

    /** Pushes and waits (push --wait has its own deadline); keeps the push's id, which every declaration it sent names. */
    private void push() throws Exception {
        mesh.ok("push", "--wait", "--wait-timeout", "120");
        pushes.add(newestAudit("push"));
    }

    // ---- what the mesh holds

    private long newestAudit(String verb) throws Exception {
        long id = 0;
        for (JsonNode e : mesh.json("audit")) {
            if (e.get("verb").asText().equals(verb)) {
                id = Math.max(id, e.get("id").asLong());
            }
        }
        return id;
    }

    /** The declaration node {@code n} held once push {@code push} was done: its newest record named by that push or an earlier one. */
    private JsonNode declarationAt(String n, long push) throws Exception {
        long generation = 0;
        for (JsonNode k : mesh.agent(n, "/v1/declarations")) {
            long id = k.path("push").path("id").asLong(0);
            if (id <= push) {
                generation = Math.max(generation, k.get("generation").asLong());
            }
        }
        assertTrue(generation > 0, n + " holds a declaration as of push " + push);
        return mesh.agent(n, "/v1/declarations/" + generation).get("declaration");
    }

    /** A declaration without what each sending gives it anew (its generation and the push that sent it). */
    private static JsonNode content(JsonNode declaration) {
        ObjectNode c = declaration.deepCopy();
        c.remove(List.of("generation", "push"));
        return c;
    }

    /** A declaration's containers (components with an image; processes, such as the controller, aside), by name. */
    private static Map<String, JsonNode> components(JsonNode declaration) {
        Map<String, JsonNode> byName = new TreeMap<>();
        declaration.get("components").forEach(c -> {
            if (c.hasNonNull("image")) {
                byName.put(c.get("name").asText(), c);
            }
        });
        return byName;
    }

    /** Each node's mesh containers' ids, as NODE/NAME. */
    private Map<String, String> containerIds() {
        Map<String, String> ids = new TreeMap<>();
        for (String n : NODES) {
            mesh.engine(n).listContainersCmd().withShowAll(true).withLabelFilter(Map.of("mesh.node", n)).exec()
                    .forEach(c -> ids.put(n + "/" + c.getNames()[0].substring(1), c.getId()));
        }
        return ids;
    }

    private Map<String, Set<String>> volumes() {
        Map<String, Set<String>> byNode = new TreeMap<>();
        for (String n : NODES) {
            Set<String> names = new TreeSet<>();
            var found = mesh.engine(n).listVolumesCmd().exec().getVolumes();
            if (found != null) {
                found.forEach(v -> names.add(v.getName()));
            }
            byNode.put(n, names);
        }
        return byNode;
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

    /** {@code mesh host history} on a node, from that node's agent's state folder. */
    private String history(String node) {
        String state = ConfigFile.read(mesh.node(node).config().resolve("host.env")).get("MESH_HOST_STATE_DIR");
        PackagedMesh.Result r = PackagedMesh.run(Map.of("MESH_HOST_STATE_DIR", state), "host", "history");
        assertEquals(0, r.exit(), r.toString());
        return r.out();
    }
}
