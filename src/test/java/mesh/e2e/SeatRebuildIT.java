package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import mesh.store.StoreCopy;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.InstalledNode;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * SeatRebuildIT (docs/rebuild.md, "Rebuilding the seat"): a mesh of three nodes raised by {@code mesh install} with a recovery
 * passphrase; marker A (an assignment, a secret, an operator token) made before a state backup pushed to n3's registry,
 * marker B after it; the seat destroyed (its agent and every process killed, its engine's containers and volumes and its
 * state folder removed); {@code mesh install --from-backup} on a fresh test-bed node, as the operator would. Then marker
 * A is there and B is not, every container on n2 and n3 keeps its id, the token made before the backup works, a push
 * and a take work, and the module that ran on the dead seat is restored onto n2 from its own backup (in n3's registry,
 * not the new seat's). The passphrase is in no process's arguments or environment, no log and not in the store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InstalledMeshTest
class SeatRebuildIT {

    static final String PASSPHRASE = "rebuild-it passphrase " + Long.toHexString(System.nanoTime());
    static final String LOOP = "trap 'exit 0' TERM; while true; do sleep 1; done";
    static final ObjectMapper JSON = new ObjectMapper();

    InstalledMesh mesh;
    InstalledNode fresh;
    Path dir;
    Path passFile;

    @BeforeAll
    void raise() throws Exception {
        dir = Files.createTempDirectory("mesh-rebuild-it");
        passFile = dir.resolve("passphrase");
        Files.createFile(passFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(passFile, PASSPHRASE + "\n");
        mesh = InstalledMesh.raise(3, List.of("--recovery-passphrase-file", passFile.toString()));
    }

    @AfterAll
    void tearDown() throws Exception {
        try {
            if (fresh != null) {
                fresh.close();
            }
        } finally {
            if (mesh != null) {
                mesh.close();
            }
            PackagedMesh.deleteTree(dir);
        }
    }

    @Test
    void theSeatIsRebuiltFromItsStateBackupAndAdoptsTheFleet() throws Exception {
        String n3 = mesh.testbed("n3").address();
        manifest("offsite", "    image: mesh-test/registry:2\n    volumes: {data: /var/lib/registry}\n    ports: [5000]\n"
                + "    health: {http: /v2/, port: 5000}\n    stop-timeout: 5s\n", "");
        manifest("alpha", busybox("alpha"), "");
        manifest("notes", busybox("notes") + "    volumes: {data: /data}\n", "backup: {registry: \"http://" + n3 + ":5000\"}\n");
        mesh.ok("catalogue", "add", dir.resolve("catalogue").toString());
        for (String[] a : new String[][] {{"n3", "offsite"}, {"n2", "alpha"}, {"n1", "notes"}}) {
            mesh.ok("assign", a[0], a[1]);
        }
        mesh.ok("push", "--wait");
        Path notes = Path.of(mesh.engine("n1").inspectVolumeCmd("notes_data").exec().getMountpoint());
        Files.writeString(notes.resolve("marker.txt"), "written on the old seat\n");
        mesh.ok("backup", "notes", "--wait");
        JsonNode backups = mesh.json("backup", "list", "notes");
        assertTrue(backups.get(0).get("registry").asText().contains(n3 + ":5000"), "the module's backup is in n3's registry: "
                + backups);

        // marker A, then the state backup to n3's registry, then marker B
        assertEquals(0, mesh.meshWithInput("value a\n", "secret", "set", "alpha", "marker-a").exit());
        String tokenA = tokenOf(mesh.ok("token", "create", "ops-a"));
        PackagedMesh.Result made = mesh.seat().mesh(List.of("seat", "backup", "--to-node", "n3", "--state-dir",
                mesh.seat().state().toString()));
        assertEquals(0, made.exit(), made.toString());
        String ref = made.out().lines().filter(l -> l.contains("/mesh-state:")).findFirst().orElseThrow()
                .replaceAll(".* pushed to (node:\\S+ \\S+) .*", "$1");
        assertTrue(ref.startsWith("node:n3 ") && ref.contains(n3 + ":5000/mesh-state:"), ref);
        manifest("beta", busybox("beta"), "");
        mesh.ok("catalogue", "add", dir.resolve("catalogue/beta.yaml").toString());
        mesh.ok("assign", "n3", "beta");
        mesh.ok("push", "--wait");
        assertEquals(0, mesh.meshWithInput("value b\n", "secret", "set", "alpha", "marker-b").exit());
        tokenOf(mesh.ok("token", "create", "ops-b"));
        Map<String, String> before = containers(List.of("n2", "n3"));
        assertTrue(before.keySet().stream().anyMatch(k -> k.startsWith("n3/beta")), before.toString());

        destroySeat();
        fresh = new InstalledNode(TestbedNodes.from(mesh.firstTestbedNode(), 4).get(3), "n1",
                Files.createTempDirectory("mesh-rebuild-fresh-"));
        InstalledMesh.clearNode(fresh.node, "mesh-rebuild-fresh-");
        long began = System.nanoTime();
        PackagedMesh.Result rebuilt = fresh.mesh(List.of("install", "--from-backup", ref, "--recovery-passphrase-file",
                passFile.toString(), "--address", fresh.node.address(), "--engine", fresh.node.dockerHost(), "--state-dir",
                fresh.state().toString(), "--config-dir", fresh.config().toString(), "--store-image", "mesh-test/postgres:15",
                "--registry-image", "mesh-test/registry:2"));
        System.out.printf("SeatRebuildIT: mesh install --from-backup took %.1f s%n", (System.nanoTime() - began) / 1e9);
        assertEquals(0, rebuilt.exit(), rebuilt.toString());
        for (String said : List.of("adopted n2 at", "adopted n3 at", "lost: notes ran on the old seat n1", "[11/11] adopt: done")) {
            assertTrue(rebuilt.out().contains(said), "says " + said + ":\n" + rebuilt.out());
        }
        assertEquals(before, containers(List.of("n2", "n3")), "every container on n2 and n3 keeps its id");

        Map<String, String> admin = new HashMap<>(mesh.cliEnv());
        admin.put("MESH_CONTROLLER", "https://" + fresh.node.address() + ":7700");
        admin.put("MESH_CA", fresh.state().resolve("tls/ca.crt").toString());
        // marker A there, B not
        JsonNode catalogue = json(admin, "catalogue", "list");
        List<String> modules = new ArrayList<>();
        catalogue.forEach(m -> modules.add(m.get("module").asText()));
        assertTrue(modules.containsAll(List.of("alpha", "notes", "offsite")) && !modules.contains("beta"), modules.toString());
        String secrets = ok(admin, "secret", "list", "alpha", "-o", "json");
        assertTrue(secrets.contains("marker-a") && !secrets.contains("marker-b"), secrets);
        String tokens = ok(admin, "token", "list", "-o", "json");
        assertTrue(tokens.contains("ops-a") && !tokens.contains("ops-b"), tokens);
        Map<String, String> opsA = new HashMap<>(admin);
        opsA.put("MESH_TOKEN", tokenA);
        ok(opsA, "node", "list");

        // a push and a take work; the module lost with the seat comes back on n2 from its backup in n3's registry
        PackagedMesh.Result push = PackagedMesh.runWithin(admin, null, Duration.ofMinutes(3), "push", "--wait", "--yes");
        assertEquals(0, push.exit(), push.toString());
        String alpha = containers(List.of("n2")).get("n2/alpha.app");
        assertEquals(before.get("n2/alpha.app"), alpha, "the push replaced nothing that was in the backup");
        PackagedMesh.Result take = PackagedMesh.runWithin(admin, null, Duration.ofMinutes(3), "take", "n3", "alpha");
        assertEquals(0, take.exit(), take.toString());
        PackagedMesh.Result restore = PackagedMesh.runWithin(admin, null, Duration.ofMinutes(3), "restore", "notes", "--to", "n2");
        assertEquals(0, restore.exit(), restore.toString());
        Path restored = Path.of(mesh.engine("n2").inspectVolumeCmd("notes_data").exec().getMountpoint());
        assertEquals("written on the old seat\n", Files.readString(restored.resolve("marker.txt")));

        passphraseNowhere(admin);
    }

    /** Must-show 2: the passphrase in no process's arguments or environment, no log or file of the nodes, not the store. */
    void passphraseNowhere(Map<String, String> admin) throws Exception {
        List<String> found = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(h -> {
            if (h.info().commandLine().orElse("").contains(PASSPHRASE)) {
                found.add("arguments of pid " + h.pid());
            }
            try {
                if (Files.readString(Path.of("/proc/" + h.pid() + "/environ"), StandardCharsets.ISO_8859_1).contains(PASSPHRASE)) {
                    found.add("environment of pid " + h.pid());
                }
            } catch (Exception e) {
                // gone, or not ours to read
            }
        });
        List<Path> roots = new ArrayList<>(List.of(fresh.root));
        mesh.names().forEach(n -> roots.add(mesh.node(n).root));
        for (Path root : roots) {
            if (!Files.exists(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.startsWith(root.resolve("app"))).toList()) {
                    try {
                        if (new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(PASSPHRASE)) {
                            found.add(f.toString());
                        }
                    } catch (java.io.IOException e) {
                        // a socket or a file removed meanwhile
                    }
                }
            }
        }
        String password = Files.readString(fresh.state().resolve("install/store-password")).strip();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + fresh.node.address() + ":5432/mesh", "mesh", password)) {
            StoreCopy.copyOut(c).forEach((part, bytes) -> {
                if (new String(bytes, StandardCharsets.ISO_8859_1).contains(PASSPHRASE)) {
                    found.add("the store's " + part);
                }
            });
        }
        assertEquals(List.of(), found, "the passphrase is nowhere");
        assertTrue(Files.isRegularFile(fresh.state().resolve("install/recovery.key")), "the rebuilt seat keeps the derived key");
    }

    /** The seat's machine gone: its agent, controller and every other process, its containers and volumes, its state. */
    void destroySeat() throws Exception {
        mesh.killAgent("n1");
        for (ProcessHandle h : mesh.seat().processes()) {
            h.destroyForcibly();
        }
        var engine = mesh.engine("n1");
        engine.listContainersCmd().withShowAll(true).exec().forEach(c -> engine.removeContainerCmd(c.getId()).withForce(true).exec());
        var volumes = engine.listVolumesCmd().exec().getVolumes();
        if (volumes != null) {
            volumes.forEach(v -> engine.removeVolumeCmd(v.getName()).exec());
        }
        PackagedMesh.deleteTree(mesh.seat().state());
    }

    void manifest(String module, String component, String head) throws Exception {
        Files.createDirectories(dir.resolve("catalogue"));
        String name = module.equals("offsite") ? "registry" : "app";
        Files.writeString(dir.resolve("catalogue/" + module + ".yaml"), "module: " + module + "\n" + head + "components:\n  "
                + module + "." + name + ":\n" + component);
    }

    static String busybox(String module) {
        return "    image: mesh-test/busybox:1\n    args: [sh, -c, \"" + LOOP + "\"]\n    stop-timeout: 1s\n";
    }

    static String tokenOf(String created) {
        return created.lines().map(String::strip).filter(l -> l.matches("[0-9a-zA-Z_-]{20,}")).findFirst()
                .orElseThrow(() -> new AssertionError("no token in: " + created));
    }

    static String ok(Map<String, String> env, String... args) {
        PackagedMesh.Result r = PackagedMesh.run(env, args);
        if (r.exit() != 0) {
            throw new AssertionError(r.toString());
        }
        return r.out();
    }

    static JsonNode json(Map<String, String> env, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("-o", "json"));
        return JSON.readTree(ok(env, all.toArray(String[]::new)));
    }

    /** Each mesh container's id on the nodes named, by node and container name. */
    Map<String, String> containers(List<String> nodes) {
        Map<String, String> ids = new LinkedHashMap<>();
        for (String node : nodes) {
            mesh.engine(node).listContainersCmd().withShowAll(true).exec().stream()
                    .filter(c -> c.getLabels() != null && c.getLabels().containsKey("mesh.module"))
                    .forEach(c -> ids.put(node + "/" + c.getNames()[0].substring(1), c.getId()));
        }
        return new TreeMap<>(ids);
    }
}
