package mesh.e2e;

import static mesh.e2e.MeshE2EIT.quietly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.command.ExecCreateCmdResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * BackupIT backs modules up into the mesh's own registry and restores them, on three simulated nodes of a mesh raised
 * by {@code mesh install} and {@code --join} ({@link InstalledMesh}: HTTPS, the agents at their installed 64 MB heap),
 * through the CLI (docs/backup.md). The registry (mesh-registry) runs on the seat, n1.
 * <ul>
 * <li>db, a real PostgreSQL (mesh-test/postgres:15) with 1,000 rows on n2, is backed up with its component's backup
 * command (a pg_dump into a volume) while it runs; then n2's engine and agent are stopped for good, and {@code mesh
 * restore db --to n3} brings it back on n3 with every row, db.internal resolving to n3 in exactly its binders; n2
 * started again does not start its old copy (the controller fences it the moment n2's agent answers).</li>
 * <li>bulk (a fenced backup, ~41 MB) backed up twice: the second, of unchanged data, grows the registry's storage by
 * under 5 % of the first.</li>
 * <li>a byte changed in one of bulk's blobs in the registry's storage: {@code mesh backup verify} and {@code mesh
 * restore} both refuse, naming the file (a large file's, streamed, and a small file's, fetched ahead); the registry
 * unreachable: a backup fails saying so, bulk still running.</li>
 * <li>a file of 150 MiB added to bulk (three chunks of a backup's config version 3) and backed up while the controller
 * is killed; then a byte changed in its second chunk: verify and restore both refuse, naming the file.</li>
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class BackupIT {

    static final String LOOP = "trap 'exit 0' TERM; while true; do sleep 1; done";
    static final int ROWS = 1_000;
    static final int BIG_FILES = 40;
    static final int SMALL_FILES = 1_000;

    final List<Path> temps = new ArrayList<>();
    InstalledMesh installed;
    long dbBackup;
    long bulkFirst;

    @BeforeAll
    void raiseTheMesh() throws Exception {
        installed = InstalledMesh.raise(3);
        installed.restartAgents(installed.names(), Map.of("MESH_HOST_INTERVAL", "1s"));
        Path dir = Files.createTempDirectory("mesh-backup-catalogue");
        temps.add(dir);
        Files.writeString(dir.resolve("db.yaml"), """
                module: db
                backup: {keep: 3, volumes: [dump]}
                components:
                  db.server:
                    image: mesh-test/postgres:15
                    env: {POSTGRES_DB: app}
                    volumes: {data: /var/lib/postgresql/data, dump: /docker-entrypoint-initdb.d}
                    ports: [5432]
                    health: {command: [pg_isready, -h, /var/run/postgresql, -U, postgres]}
                    stop-timeout: 30s
                    backup: [sh, -c, "pg_dump -U postgres -d app > /docker-entrypoint-initdb.d/app.sql.part && mv /docker-entrypoint-initdb.d/app.sql.part /docker-entrypoint-initdb.d/app.sql"]
                """);
        Files.writeString(dir.resolve("bulk.yaml"), """
                module: bulk
                components:
                  bulk.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "%s"]
                    volumes: {data: /data}
                    stop-timeout: 1s
                """.formatted(LOOP));
        Files.writeString(dir.resolve("tick.yaml"), """
                module: tick
                backup: {every: 1m, keep: 2}
                components:
                  tick.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "date >> /data/starts; %s"]
                    volumes: {data: /data}
                    stop-timeout: 1s
                """.formatted(LOOP));
        for (String[] m : new String[][] {{"client1", "[db.internal]"}, {"client3", "[db.internal]"}, {"idle1", "[]"},
            {"idle2", "[]"}, {"idle3", "[]"}}) {
            Files.writeString(dir.resolve(m[0] + ".yaml"), """
                    module: %s
                    components:
                      %s.server:
                        image: mesh-test/busybox:1
                        args: [sh, -c, "%s"]
                        binds: %s
                        stop-timeout: 1s
                    """.formatted(m[0], m[0], LOOP, m[1]));
        }
        ok("catalogue", "add", dir.toString());
        String recipe = installed.engine("n2").inspectImageCmd("mesh-test/postgres:15").exec().getConfig().getLabels()
                .get("mesh.testbed.recipe");
        assertTrue(Integer.parseInt(recipe) >= 5, "the test bed's mesh-test/postgres:15 is recipe " + recipe + ", without pg_dump"
                + " and /docker-entrypoint-initdb.d: run scripts/testbed up from this tree");
        for (String[] a : new String[][] {{"n2", "db"}, {"n3", "bulk"}, {"n1", "client1"}, {"n3", "client3"}, {"n1", "idle1"},
            {"n2", "idle2"}, {"n3", "idle3"}, {"n1", "tick"}}) {
            ok("assign", a[0], a[1]);
        }
        ok("push", "--wait");
        PackagedMesh.await("db answers on n2", Duration.ofSeconds(120), () -> quietly(() -> psql("n2", "select 1").equals("1")));
        psql("n2", "create table items (id int primary key, name text not null); insert into items select g, 'item ' || g"
                + " from generate_series(1, " + ROWS + ") g");
        fill(volume("n3", "bulk", "data"));
    }

    @AfterAll
    void tearDown() throws Exception {
        if (installed != null) {
            String n2 = installed.testbed("n2").name();
            quietly(() -> {
                TestbedNodes.startEngine(n2);
                return true;
            });
            installed.close();
        }
        for (Path p : temps) {
            PackagedMesh.deleteTree(p);
        }
    }

    /** Must-show 1, first half: db backed up with its backup command while it runs (same container, never stopped). */
    @Test
    @Order(1)
    void aRunningPostgresIsBackedUpWithItsBackupCommand() throws Exception {
        String before = started("n2", "db.server");
        String out = ok("backup", "db", "--wait");
        assertTrue(out.contains("the module keeps running"), out);
        assertTrue(out.matches("(?s).*backup \\d+ of db done: .*"), out);
        assertEquals(before, started("n2", "db.server"), "db was never stopped: the same container, started once");
        assertTrue(running("n2", "db.server"));
        JsonNode list = installed.json("backup", "list", "db");
        assertEquals(1, list.size(), list.toString());
        JsonNode b = list.get(0);
        dbBackup = b.get("id").asLong();
        assertEquals("done", b.get("state").asText());
        assertTrue(b.get("live").asBoolean());
        assertTrue(b.get("manifest").asText().startsWith("sha256:"), b.toString());
        assertEquals(List.of("dump"), names(b.get("volumes")));
        String dump = Files.readString(volume("n2", "db", "dump").resolve("app.sql"));
        assertTrue(dump.contains("COPY public.items (id, name) FROM stdin;"), "the dump holds the table");
        String verify = ok("backup", "verify", Long.toString(dbBackup));
        assertTrue(verify.contains("verified: every file"), verify);
        String status = mesh("status").out();
        assertTrue(status.contains("backup db (n2): last " + dbBackup + " done"), status);
    }

    /** Must-show 2: bulk (fenced) backed up twice; the second, of unchanged data, grows the registry by under 5 % of the first. */
    @Test
    @Order(2)
    void aSecondBackupOfUnchangedDataSendsUnderFivePercentOfTheFirst() throws Exception {
        long empty = registryBytes();
        String first = ok("backup", "bulk", "--wait");
        assertTrue(first.contains("the module stops for the copy"), first);
        long afterFirst = registryBytes();
        PackagedMesh.await("bulk runs on n3 again", Duration.ofSeconds(30), () -> quietly(() -> running("n3", "bulk.app")));
        String second = ok("backup", "bulk", "--wait");
        long afterSecond = registryBytes();
        long firstGrowth = afterFirst - empty;
        long secondGrowth = afterSecond - afterFirst;
        System.out.printf("registry storage: first backup +%d bytes, second (unchanged) +%d bytes (%.2f %%)%n", firstGrowth,
                secondGrowth, 100.0 * secondGrowth / firstGrowth);
        assertTrue(firstGrowth > BIG_FILES * 1024L * 1024L, "the first backup stored bulk's data: +" + firstGrowth);
        assertTrue(secondGrowth < firstGrowth / 20, "the second grew the registry by " + secondGrowth + " bytes, over 5 % of "
                + firstGrowth + "\n" + second);
        JsonNode list = installed.json("backup", "list", "bulk");
        assertEquals(2, list.size());
        bulkFirst = list.get(1).get("id").asLong();
        assertTrue(list.get(0).get("sent").asLong() < list.get(1).get("sent").asLong() / 20, list.toString());
        assertEquals(list.get(0).get("bytes").asLong(), list.get(1).get("bytes").asLong());
        PackagedMesh.await("bulk runs on n3 again", Duration.ofSeconds(30), () -> quietly(() -> running("n3", "bulk.app")));
    }

    /**
     * Must-show 3: one byte changed in a blob in the registry's own storage: verify and restore both refuse naming the
     * file; the registry unreachable: a backup fails saying so, and bulk runs on.
     */
    @Test
    @Order(3)
    void aCorruptedBlobIsNamedByVerifyAndRestoreAndARegistryDownIsAClearError() throws Exception {
        Path victim = volume("n3", "bulk", "data").resolve("big/b07.bin");
        Path blob = blobs().resolve(TakeIT.sha256(victim).substring(0, 2) + "/"
                + TakeIT.sha256(victim) + "/data");
        assertTrue(Files.isRegularFile(blob), "the registry holds the file's blob at " + blob);
        flipByte(blob, 4096);
        try {
            PackagedMesh.Result verify = mesh("backup", "verify", Long.toString(bulkFirst));
            assertEquals(1, verify.exit(), verify.toString());
            assertTrue(verify.err().contains("volume data, file big/b07.bin"), verify.toString());
            JsonNode listed = installed.json("backup", "list", "bulk").get(1);
            assertTrue(listed.get("verifyError").asText().contains("big/b07.bin"), listed.toString());

            PackagedMesh.Result restore = mesh("restore", "bulk", Long.toString(bulkFirst), "--to", "n1");
            assertEquals(1, restore.exit(), restore.toString());
            assertTrue(restore.out().contains("big/b07.bin"), restore.toString());
            assertTrue(restore.out().contains("rolled-back"), restore.toString());
            PackagedMesh.await("bulk runs on n3 again", Duration.ofSeconds(60), () -> quietly(() -> running("n3", "bulk.app")));
            assertFalse(running("n1", "bulk.app"));
            assertFalse(volumeExists("n1", "bulk_data"), "n1's partial copy is deleted");
            assertEquals("n3", roster().get("bulk.internal"));
        } finally {
            flipByte(blob, 4096);
        }
        // a small file's content, in a pack with others (fetched ahead of the tar stream): the restore names the file
        Path small = volume("n3", "bulk", "data").resolve("small/d3/f042.txt");
        Map.Entry<Path, Long> part = packPart(TakeIT.sha256(small));
        Path smallBlob = part.getKey();
        flipByte(smallBlob, part.getValue() + 2);
        try {
            PackagedMesh.Result restore = mesh("restore", "bulk", Long.toString(bulkFirst), "--to", "n1");
            assertEquals(1, restore.exit(), restore.toString());
            assertTrue(restore.out().contains("small/d3/f042.txt"), restore.toString());
            PackagedMesh.await("bulk runs on n3 again", Duration.ofSeconds(60), () -> quietly(() -> running("n3", "bulk.app")));
            assertFalse(volumeExists("n1", "bulk_data"), "n1's partial copy is deleted");
        } finally {
            flipByte(smallBlob, part.getValue() + 2);
        }
        String bulkBefore = started("n3", "bulk.app");
        String seat = installed.testbed("n1").name();
        iptables(seat, "-I");
        try {
            PackagedMesh.Result down = mesh("backup", "bulk", "--wait");
            assertEquals(1, down.exit(), down.toString());
            assertTrue(down.out().contains("does not answer"), down.toString());
            assertTrue(down.out().contains(installed.testbed("n1").address() + ":5000"), "names the registry: " + down);
            assertEquals(bulkBefore, started("n3", "bulk.app"), "bulk was never stopped: the registry was asked first");
            assertTrue(running("n3", "bulk.app"), "bulk still runs");
            PackagedMesh.Result db = mesh("backup", "db", "--wait");
            assertEquals(1, db.exit(), db.toString());
            assertTrue(running("n2", "db.server"), "db still runs");
        } finally {
            iptables(seat, "-D");
        }
    }

    /**
     * Must-show 1, second half: n2's engine and agent stopped for good; db restored on n3 from its backup with every
     * row; db.internal resolves to n3 in exactly its binders; n2 started again does not start its old copy.
     */
    @Test
    @Order(4)
    void aModuleWhoseNodeIsDeadIsRestoredOnAnotherWithItsNamesMoved() throws Exception {
        Map<String, String> before = containers(List.of("n1", "n3"));
        String n2 = installed.testbed("n2").name();
        installed.killAgent("n2");
        TestbedNodes.stopEngine(n2);

        // n2 does not answer, but nothing says it is down rather than cut off with db still running: refused, nothing changed
        for (List<String> args : List.of(List.of("restore", "db", "--to", "n3"), List.of("restore", "db", "--to", "n3", "--dry-run"))) {
            PackagedMesh.Result refused = mesh(args.toArray(String[]::new));
            assertEquals(1, refused.exit(), refused.toString());
            assertTrue(refused.err().contains("node n2 does not answer: it may be down, or only cut off from the controller with db"
                    + " still running there") && refused.err().contains("--to n3 --down n2'"), refused.toString());
        }
        PackagedMesh.Result wrongNode = mesh("restore", "db", "--to", "n3", "--down", "n1");
        assertEquals(1, wrongNode.exit(), wrongNode.toString());
        assertTrue(wrongNode.err().contains("--down n1: module db runs on n2, not on n1"), wrongNode.toString());
        assertEquals("n2", roster().get("db.internal"), "nothing moved");
        String trail = installed.json("audit").toString();
        assertFalse(trail.contains("restore of backup " + dbBackup + " to n3 begun"), "no restore recorded: " + trail);

        PackagedMesh.Result dry = mesh("restore", "db", "--to", "n3", "--down", "n2", "--dry-run");
        assertEquals(0, dry.exit(), dry.toString());
        assertTrue(dry.out().contains("lose: n2 does not answer and was said down"), dry.toString());

        String out = ok("restore", "db", "--to", "n3", "--down", "n2");
        for (String step : List.of("step preflight", "step lose", "step restore", "step start", "step switch", "step push",
            "step old-copy", "restored db from backup " + dbBackup + ": it runs on n3")) {
            assertTrue(out.contains(step), "says " + step + ":\n" + out);
        }
        assertEquals(Integer.toString(ROWS), psql("n3", "select count(*) from items"), "every row is there");
        assertEquals("item 777", psql("n3", "select name from items where id = 777"));
        assertEquals("n3", roster().get("db.internal"));

        Map<String, String> after = containers(List.of("n1", "n3"));
        List<String> replaced = new ArrayList<>();
        before.forEach((name, id) -> {
            if (!id.equals(after.get(name))) {
                replaced.add(name);
            }
        });
        assertEquals(List.of("n1/client1.server", "n3/client3.server"), replaced, "exactly db's binders were replaced");
        for (String binder : replaced) {
            String[] at = binder.split("/");
            List<String> hosts = List.of(installed.engine(at[0]).inspectContainerCmd(at[1]).exec().getHostConfig().getExtraHosts());
            assertTrue(hosts.contains("db.internal:" + installed.testbed("n3").address()), binder + ": " + hosts);
        }

        TestbedNodes.startEngine(n2);
        long engineUp = System.nanoTime();
        boolean restartedByEngine = running("n2", "db.server");
        installed.startAgent("n2", Map.of("MESH_HOST_INTERVAL", "1s"));
        long agentUp = System.nanoTime();
        PackagedMesh.await("the controller fences db's old copy on n2", Duration.ofSeconds(60), () -> quietly(() ->
                fenced("n2", "db")));
        long fencedAt = System.nanoTime();
        PackagedMesh.await("db's old copy is stopped on n2 (its stop timeout at most)", Duration.ofSeconds(40),
                () -> quietly(() -> !running("n2", "db.server")));
        long stoppedAt = System.nanoTime();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            assertFalse(running("n2", "db.server"), "n2 never starts its old copy again once fenced");
            Thread.sleep(200);
        }
        System.out.printf("n2 back: the engine %s the old copy at its start (restart policy); its agent answered %.1f s after"
                + " the engine started; the old copy fenced %.1f s after the agent answered, stopped %.1f s after the fence%n",
                restartedByEngine ? "restarted" : "did not restart", (agentUp - engineUp) / 1e9, (fencedAt - agentUp) / 1e9,
                (stoppedAt - fencedAt) / 1e9);
        ok("push", "--wait");
        Thread.sleep(3_000);
        assertFalse(running("n2", "db.server"), "nor after a push");
        assertTrue(volumeExists("n2", "db_data"), "n2 keeps its copy, as a take's old copy");
        JsonNode audit = installed.json("audit");
        assertTrue(audit.toString().contains("its lost copy on n2 fenced"), audit.toString());
    }

    /**
     * The schedule: tick ({@code backup: {every: 1m, keep: 2}}) was backed up by the controller on its own, once a
     * minute, through the tests above; only the newest two are kept, the others removed (the audit says so), and
     * {@code mesh status} shows its last result and schedule.
     */
    @Test
    @Order(5)
    void aScheduleIsRunByTheControllerAndKeepsTheNewest() throws Exception {
        PackagedMesh.await("the controller has backed tick up three times", Duration.ofSeconds(200), () -> quietly(() ->
                installed.controller("/v1/mesh/audit").toString().split("module tick: backup \\d+ done", -1).length > 3));
        PackagedMesh.await("retention has removed the older ones", Duration.ofSeconds(120), () -> quietly(() ->
                installed.controller("/v1/mesh/audit").toString().matches("(?s).*module tick: backup \\d+ removed \\(keep 2\\).*")));
        JsonNode listed = installed.json("backup", "list", "tick");
        List<JsonNode> done = new ArrayList<>();
        listed.forEach(b -> {
            assertEquals("schedule", b.get("trigger").asText(), b.toString());
            if ("done".equals(b.get("state").asText())) {
                done.add(b);
            }
        });
        assertTrue(done.size() <= 2, "keep 2: " + listed);
        String audit = installed.json("audit").toString();
        assertTrue(audit.matches("(?s).*module tick: backup \\d+ removed \\(keep 2\\).*"), audit);
        String status = mesh("status").out();
        assertTrue(status.contains("backup tick (n1): last "), status);
        assertTrue(status.contains("every 1m, keep 2"), status);
        assertTrue(status.contains("warning: backups of tick land on the registry of n1, the node it runs on"), status);
    }

    /**
     * The runner's record: the controller SIGKILLed while a fenced backup of bulk copies; the next controller carries
     * the backup on from its recorded step (the copy again: the blobs the registry got are not sent twice), it ends
     * done and bulk runs again on n3. The file it adds (150 MiB) is stored as three chunks: one byte changed in the
     * second in the registry's storage, verify and restore both refuse naming the file.
     */
    @Test
    @Order(6)
    void aBackupWhoseControllerIsKilledMidCopyIsCarriedOnByTheNext() throws Exception {
        Path data = volume("n3", "bulk", "data");
        byte[] mb = new byte[1024 * 1024];
        Random random = new Random(6);
        try (var out = Files.newOutputStream(data.resolve("big/later.bin"))) {
            for (int i = 0; i < 150; i++) {
                random.nextBytes(mb);
                out.write(mb);
            }
        }
        JsonNode begun = installed.json("backup", "bulk");
        long id = begun.get("id").asLong();
        PackagedMesh.await("backup " + id + " copies", Duration.ofSeconds(60), () -> quietly(() ->
                "copy".equals(installed.controller("/v1/mesh/backups?module=bulk").get(0).get("step").asText())));
        installed.killController();
        installed.awaitController(Duration.ofSeconds(120));
        PackagedMesh.await("backup " + id + " ends", Duration.ofSeconds(180), () -> quietly(() ->
                !"running".equals(installed.controller("/v1/mesh/backups?module=bulk").get(0).get("state").asText())));
        JsonNode b = installed.json("backup", "list", "bulk").get(0);
        assertEquals(id, b.get("id").asLong());
        assertEquals("done", b.get("state").asText(), b.toString());
        assertTrue(b.get("bytes").asLong() > 150L * 1024 * 1024, b.toString());
        PackagedMesh.await("bulk runs on n3 again", Duration.ofSeconds(60), () -> quietly(() -> running("n3", "bulk.app")));
        String verify = ok("backup", "verify", Long.toString(id));
        assertTrue(verify.contains("verified"), verify);

        Path chunk = chunkBlob(TakeIT.sha256(data.resolve("big/later.bin")), 1);
        flipByte(chunk, 4096);
        try {
            PackagedMesh.Result refused = mesh("backup", "verify", Long.toString(id));
            assertEquals(1, refused.exit(), refused.toString());
            assertTrue(refused.err().contains("volume data, file big/later.bin: chunk 2 of 3"), refused.toString());
            PackagedMesh.Result restore = mesh("restore", "bulk", Long.toString(id), "--to", "n1");
            assertEquals(1, restore.exit(), restore.toString());
            assertTrue(restore.out().contains("big/later.bin"), restore.toString());
            assertTrue(restore.out().contains("rolled-back"), restore.toString());
            PackagedMesh.await("bulk runs on n3 again", Duration.ofSeconds(60), () -> quietly(() -> running("n3", "bulk.app")));
            assertFalse(volumeExists("n1", "bulk_data"), "n1's partial copy is deleted");
        } finally {
            flipByte(chunk, 4096);
        }
    }

    // ---- helpers

    String ok(String... args) {
        return installed.ok(args);
    }

    PackagedMesh.Result mesh(String... args) {
        return installed.mesh(args);
    }

    static List<String> names(JsonNode volumes) {
        List<String> n = new ArrayList<>();
        volumes.forEach(v -> n.add(v.get("name").asText()));
        return n;
    }

    /** 40 files of 1 MB of random bytes and 1,000 small ones. */
    static void fill(Path data) throws IOException {
        Random random = new Random(24);
        byte[] mb = new byte[1024 * 1024];
        Files.createDirectories(data.resolve("big"));
        for (int i = 0; i < BIG_FILES; i++) {
            random.nextBytes(mb);
            Files.write(data.resolve(String.format("big/b%02d.bin", i)), mb);
        }
        for (int d = 0; d < 10; d++) {
            Path dir = Files.createDirectories(data.resolve(String.format("small/d%d", d)));
            for (int f = 0; f < SMALL_FILES / 10; f++) {
                Files.writeString(dir.resolve(String.format("f%03d.txt", f)), "file " + f + " of " + d + "\n");
            }
        }
    }

    static void flipByte(Path file, long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0xff);
        }
    }

    /** Drops (or lets through again) the traffic to the registry's port on the seat, with a reset: the registry "down". */
    static void iptables(String testbedNode, String op) throws Exception {
        for (String chain : List.of("INPUT", "FORWARD", "OUTPUT")) {
            Process p = new ProcessBuilder("nsenter", "--net=/run/netns/" + testbedNode, "iptables", op, chain, "-p", "tcp",
                    "--dport", "5000", "-j", "REJECT", "--reject-with", "tcp-reset").redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "iptables " + op + " " + chain + ": " + said);
        }
    }

    Path registryRoot() {
        return volume("n1", "mesh-registry", "data");
    }

    /**
     * The pack blob in the registry's storage that holds the content {@code sha256}, and where its part begins: found in
     * a backup's config (a JSON blob listing its packs and their parts).
     */
    Map.Entry<Path, Long> packPart(String sha256) throws IOException {
        Path blobs = blobs();
        List<Path> configs = backupConfigs(2, 3);
        for (Path config : configs) {
            for (JsonNode pack : new ObjectMapper().readTree(config.toFile()).path("packs")) {
                for (JsonNode p : pack.path("parts")) {
                    if (p.get("sha256").asText().equals(sha256)) {
                        String hex = pack.get("sha256").asText();
                        return Map.entry(blobs.resolve(hex.substring(0, 2) + "/" + hex + "/data"), p.get("offset").asLong());
                    }
                }
            }
        }
        throw new AssertionError("no backup config in the registry lists a pack holding " + sha256 + " (configs: " + configs + ")");
    }

    /**
     * The blob in the registry's storage of chunk {@code index} of the chunked content {@code sha256}: found in a backup's
     * config (version 3 lists each chunked content's chunks in order).
     */
    Path chunkBlob(String sha256, int index) throws IOException {
        Path blobs = blobs();
        List<Path> configs = backupConfigs(3);
        for (Path config : configs) {
            for (JsonNode c : new ObjectMapper().readTree(config.toFile()).path("chunked")) {
                if (c.get("sha256").asText().equals(sha256)) {
                    String hex = c.path("chunks").get(index).get("sha256").asText();
                    return blobs.resolve(hex.substring(0, 2) + "/" + hex + "/data");
                }
            }
        }
        throw new AssertionError("no backup config in the registry lists the chunks of " + sha256 + " (configs: " + configs + ")");
    }

    /** The folder of the registry's storage that holds every blob, each as {@code <2 hex>/<64 hex>/data}. */
    Path blobs() {
        return registryRoot().resolve("docker/registry/v2/blobs/sha256");
    }

    /** The blobs in the registry's storage that are backups' configs of one of {@code versions} (JSON beginning so). */
    List<Path> backupConfigs(int... versions) throws IOException {
        try (Stream<Path> all = Files.walk(blobs())) {
            return all.filter(p -> p.getFileName().toString().equals("data") && p.toFile().length() < 64 * 1024 * 1024)
                    .filter(p -> quietly(() -> {
                        try (var in = Files.newInputStream(p)) {
                            String head = new String(in.readNBytes(64));
                            return java.util.Arrays.stream(versions).anyMatch(v -> head.startsWith("{\"version\":" + v + ","));
                        }
                    })).toList();
        }
    }

    long registryBytes() throws IOException {
        try (Stream<Path> all = Files.walk(registryRoot())) {
            return all.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    Path volume(String node, String module, String name) {
        return Path.of(installed.engine(node).inspectVolumeCmd(module + "_" + name).exec().getMountpoint());
    }

    boolean volumeExists(String node, String name) {
        var volumes = installed.engine(node).listVolumesCmd().exec().getVolumes();
        return volumes != null && volumes.stream().anyMatch(v -> v.getName().equals(name));
    }

    boolean running(String node, String component) {
        try {
            return Boolean.TRUE.equals(installed.engine(node).inspectContainerCmd(component).exec().getState().getRunning());
        } catch (com.github.dockerjava.api.exception.NotFoundException e) {
            return false;
        }
    }

    /** When the container's process last started: unchanged means it was never stopped and started. */
    String started(String node, String component) {
        return installed.engine(node).inspectContainerCmd(component).exec().getState().getStartedAt();
    }

    String containerId(String node, String component) {
        return installed.engine(node).inspectContainerCmd(component).exec().getId();
    }

    Map<String, String> containers(List<String> nodes) {
        Map<String, String> ids = new LinkedHashMap<>();
        for (String node : nodes) {
            installed.engine(node).listContainersCmd().withShowAll(true).exec().stream()
                    .filter(c -> c.getLabels() != null && c.getLabels().containsKey("mesh.module"))
                    .forEach(c -> ids.put(node + "/" + c.getNames()[0].substring(1), c.getId()));
        }
        return new java.util.TreeMap<>(ids);
    }

    Map<String, String> roster() throws IOException {
        Map<String, String> names = new LinkedHashMap<>();
        for (JsonNode e : installed.json("roster")) {
            names.put(e.get("name").asText(), e.get("node").asText());
        }
        return names;
    }

    boolean fenced(String node, String module) throws Exception {
        for (JsonNode f : installed.agent(node, "/v1/fences")) {
            if (f.get("module").asText().equals(module)) {
                return true;
            }
        }
        return false;
    }

    /** A query on db through psql in its container on {@code node}; the rows as psql -At prints them. */
    String psql(String node, String sql) throws Exception {
        var engine = installed.engine(node);
        ExecCreateCmdResponse exec = engine.execCreateCmd("db.server").withAttachStdout(true).withAttachStderr(true)
                .withCmd("psql", "-X", "-At", "-v", "ON_ERROR_STOP=1", "-U", "postgres", "-d", "app", "-c", sql).exec();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        engine.execStartCmd(exec.getId()).exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Frame>() {
            @Override
            public void onNext(com.github.dockerjava.api.model.Frame f) {
                (f.getStreamType() == com.github.dockerjava.api.model.StreamType.STDERR ? err : out).writeBytes(f.getPayload());
            }
        }).awaitCompletion(60, TimeUnit.SECONDS);
        Long code = engine.inspectExecCmd(exec.getId()).exec().getExitCodeLong();
        if (code == null || code != 0) {
            throw new IOException("psql on " + node + " exited " + code + ": " + err);
        }
        return out.toString().strip();
    }
}
