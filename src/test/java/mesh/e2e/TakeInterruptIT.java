package mesh.e2e;

import static mesh.e2e.MeshE2EIT.json;
import static mesh.e2e.MeshE2EIT.quietly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
 * TakeInterruptIT kills (SIGKILL, the real process) each party of a take, one at a time: the source's
 * agent, the target's agent and the controller, each once in the middle of the pre-copy (the module running;
 * the source's first archive paused after its first 64 KiB by the agents' test hold {@code pre-copy}), once in
 * the middle of the delta after the fence (the source's archive of what changed paused, {@code copy}) and once
 * in the middle of the verify (one side's manifest paused before its scan), and starts it again at once. What
 * each case must end in:
 *
 * <ul>
 *   <li>an agent killed (either side, copy or verify): the take rolls back by itself, with no second
 *       {@code mesh take}: the first failure is named, the target's copy is gone and its agent keeps no fence
 *       and no copy mark of the module, the source's fence is lifted and tk runs there again;
 *   <li>the controller killed: the restarted controller carries the take on by itself (the step again) and
 *       it ends done: tk runs on the target with the source's data, the source keeps its old copy; in the
 *       middle of the copy, the dead controller's copy is cut on the target before the new one begins.
 * </ul>
 *
 * In every case tk never runs on two nodes (looked at every 200 ms) and no byte of the source's data
 * changes but tk's start marker, which only grows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class TakeInterruptIT {

    static final String TK = "tk";
    static final String APP = "tk.app";
    static final int LARGE_MB = 20;
    static final int SMALL_FILES = 400;

    TakeBed bed;

    @BeforeAll
    void raiseTheMesh() throws Exception {
        bed = new TakeBed("take-kill", List.of(TK));
        Path dir = bed.temp("take-kill-catalogue");
        Files.writeString(dir.resolve("tk.yaml"), """
                module: tk
                components:
                  tk.app:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "echo started >> /files/markers.log; %s"]
                    volumes: {bulk: /bulk, files: /files}
                    stop-timeout: 1s
                """.formatted(TakeIT.LOOP));
        bed.ok("catalogue", "add", dir.toString());
        bed.ok("assign", "n1", TK);
        bed.ok("push", "--wait");
        PackagedMesh.await("tk runs on n1", Duration.ofSeconds(60), () -> quietly(() -> bed.runs("n1", APP)));
        TakeIT.fill(bed.volume("n1", "tk_bulk"), bed.volume("n1", "tk_files"), LARGE_MB, SMALL_FILES);
        // written a minute ago, as data is: a file modified within a second of a pre-copy pass's start is sent again
        // after the fence (VolumeDelta's racy-mtime rule), and the first take began that soon after the fill once in CI,
        // so its copy step re-sent the large file and the hold cut it ("the pre-copy brought the large file whole")
        backdate(bed.volume("n1", "tk_bulk"));
        backdate(bed.volume("n1", "tk_files"));
    }

    static void backdate(Path root) throws java.io.IOException {
        java.nio.file.attribute.FileTime minuteAgo = java.nio.file.attribute.FileTime.from(java.time.Instant.now().minusSeconds(60));
        try (java.util.stream.Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(p, minuteAgo);
            }
        }
    }

    @AfterAll
    void tearDown() throws Exception {
        if (bed != null) {
            bed.release();
            bed.close();
        }
    }

    @Test
    @Order(1)
    void theTargetAgentKilledInTheMiddleOfTheCopyRollsTheTakeBack() throws Exception {
        agentKilled("n1", "n2", "copy", "n2");
    }

    @Test
    @Order(2)
    void theSourceAgentKilledInTheMiddleOfTheCopyRollsTheTakeBack() throws Exception {
        agentKilled("n1", "n2", "copy", "n1");
    }

    @Test
    @Order(3)
    void theTargetAgentKilledInTheMiddleOfTheVerifyRollsTheTakeBack() throws Exception {
        agentKilled("n1", "n2", "verify", "n2");
    }

    @Test
    @Order(4)
    void theSourceAgentKilledInTheMiddleOfTheVerifyRollsTheTakeBack() throws Exception {
        agentKilled("n1", "n2", "verify", "n1");
    }

    @Test
    @Order(5)
    void theControllerKilledInTheMiddleOfTheCopyCarriesTheTakeOnToTheEnd() throws Exception {
        controllerKilled("n1", "n2", "copy");
    }

    @Test
    @Order(6)
    void theControllerKilledInTheMiddleOfTheVerifyCarriesTheTakeOnToTheEnd() throws Exception {
        controllerKilled("n2", "n3", "verify");
    }

    /**
     * A take killed midway into a node that held an old copy of tk (n1, left by case 5's take), in its pre-copy's
     * first pass, empties the old volume it copies into, and its rollback deletes that: {@code mesh take --forget-old} afterwards removes what
     * is left of the old copies (n2's, left by case 6, and n1's other volume) and passes over the volume that is
     * gone, instead of failing on it.
     */
    @Test
    @Order(7)
    void aTakeRolledBackFromANodeThatHeldAnOldCopyLeavesForgetOldWorking() throws Exception {
        assertTrue(bed.volumes("n1", "tk_").size() == 2 && bed.volumes("n2", "tk_").size() == 2,
                "n1 and n2 hold old copies of tk: " + bed.volumes("n1", "tk_") + " " + bed.volumes("n2", "tk_"));
        agentKilled("n3", "n1", "pre-copy", "n1");
        assertEquals(List.of("tk_files"), bed.volumes("n1", "tk_"),
                "the take emptied n1's old bulk for its copy and deleted it rolling back; the old files it never reached");
        String forgot = bed.ok("take", "--forget-old", TK);
        assertTrue(forgot.contains("removed the old copy of tk on n2 left by the take at epoch "), forgot);
        assertEquals(List.of(), bed.volumes("n2", "tk_"), "n2's old copy is gone");
        assertEquals(List.of(), bed.volumes("n1", "tk_"), "and what was left of n1's (its files), the rolled-back take having deleted its bulk");
        assertEquals(2, bed.volumes("n3", "tk_").size(), "n3's volumes, which tk runs on, are kept");
        assertTrue(bed.runs("n3", APP));
    }

    @Test
    @Order(8)
    void theTargetAgentKilledInTheMiddleOfThePreCopyRollsTheTakeBack() throws Exception {
        agentKilled("n3", "n2", "pre-copy", "n2");
    }

    @Test
    @Order(9)
    void theSourceAgentKilledInTheMiddleOfThePreCopyRollsTheTakeBack() throws Exception {
        agentKilled("n3", "n2", "pre-copy", "n3");
    }

    @Test
    @Order(10)
    void theControllerKilledInTheMiddleOfThePreCopyCarriesTheTakeOnToTheEnd() throws Exception {
        controllerKilled("n3", "n1", "pre-copy");
    }

    /**
     * Takes tk from {@code source} to {@code target}, holds it at {@code step} and kills {@code victim}'s agent there;
     * the take must roll back by itself, leaving nothing of it on the target and tk on the source with the same data.
     */
    void agentKilled(String source, String target, String step, String victim) throws Exception {
        assertTrue(bed.runs(source, APP), "tk runs on " + source + " when this begins");
        Source before = Source.of(bed, source);
        JsonNode targetFences = bed.agent(target, "/v1/fences");
        List<String> targetVolumes = bed.volumes(target, "tk_");
        try (TakeBed.Watch watch = bed.watch(APP)) {
            // a pass is held at the source's archive; a verify at the side to be killed (the source's manifest comes first)
            bed.hold(!"verify".equals(step) ? source : victim, step);
            CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(() -> bed.mesh("take", target, TK, "-o", "json"), PackagedMesh.OWN_THREAD);
            heldMidway(source, target, step);

            bed.restartAgent(victim);
            bed.release();
            PackagedMesh.Result r = take.get();
            assertEquals(1, r.exit(), r.toString());
            JsonNode end = json(r);
            assertEquals("rolled-back", end.get("step").asText(), "the take rolled back by itself: " + r);
            assertTrue(end.get("error").asText().startsWith(step + ": "), "the first failure is named, at the " + step + ": " + r);

            PackagedMesh.await("tk runs on " + source + " again", Duration.ofSeconds(60), () -> quietly(() -> bed.runs(source, APP)));
            assertNull(watch.twice(), "tk never ran on two nodes");
        }
        assertFalse(bed.runs(target, APP), target + " runs nothing of tk");
        assertEquals(source, bed.roster().get("tk.internal"));
        List<String> left = bed.volumes(target, "tk_");
        assertTrue(targetVolumes.containsAll(left), "the take's copy is gone from the target: " + left + ", it had " + targetVolumes);
        PackagedMesh.await("both agents answer", Duration.ofSeconds(60), () -> quietly(() -> bed.agent(target, "/v1/fences") != null
                && bed.agent(source, "/v1/fences") != null));
        assertEquals(targetFences, bed.agent(target, "/v1/fences"), "the target's fences are as they were (an earlier take's, if any)");
        assertEquals(0, bed.agent(source, "/v1/fences").size(), "the source's fence is lifted: " + bed.agent(source, "/v1/fences"));
        for (JsonNode v : bed.agent(target, "/v1/volumes/" + TK)) {
            assertFalse(v.path("oldCopyOf").isNull() || v.path("oldCopyOf").isMissingNode(),
                    "the target keeps nothing of tk but an earlier take's old copy: " + bed.agent(target, "/v1/volumes/" + TK));
        }
        before.assertUnchanged(bed, "killed " + victim + "'s agent during the " + step);
    }

    /**
     * Takes tk from {@code source} to {@code target}, holds it at {@code step} and kills the controller there; the
     * restarted controller must carry the take on by itself to the end: tk on the target with the source's data.
     */
    void controllerKilled(String source, String target, String step) throws Exception {
        assertTrue(bed.runs(source, APP), "tk runs on " + source + " when this begins");
        Source before = Source.of(bed, source);
        long logged = bed.logMark(target);
        try (TakeBed.Watch watch = bed.watch(APP)) {
            bed.hold(source, step);
            CompletableFuture<PackagedMesh.Result> take = CompletableFuture.supplyAsync(() -> bed.mesh("take", target, TK, "-o", "json"), PackagedMesh.OWN_THREAD);
            heldMidway(source, target, step);
            long epoch = bed.take(TK).get("epoch").asLong();

            bed.restartController();
            assertEquals(1, take.get().exit(), "the CLI following the take loses its controller");
            PackagedMesh.await("the new controller carries the take on at its " + step, Duration.ofSeconds(30),
                    () -> quietly(() -> bed.take(TK).get("active").asBoolean() && step.equals(bed.take(TK).get("step").asText())));
            Thread.sleep(2_000);  // the new runner's own call reaches the hold too
            bed.release();
            PackagedMesh.await("the take ends", Duration.ofSeconds(120),
                    () -> quietly(() -> !"running".equals(bed.take(TK).get("state").asText())));
            JsonNode end = bed.take(TK);
            assertEquals("done", end.get("step").asText(), "the restarted controller carried the take to its end: " + end);
            assertEquals(epoch, end.get("epoch").asLong(), "the same take, not a new one: " + end);
            assertTrue(end.path("error").isNull() || end.path("error").isMissingNode(), end.toString());
            assertTrue(bed.runs(target, APP), "tk runs on " + target);
            assertNull(watch.twice(), "tk never ran on two nodes");
        }
        assertFalse(bed.runs(source, APP), source + " runs nothing of tk");
        assertEquals(target, bed.roster().get("tk.internal"));
        assertEquals(0, bed.agent(target, "/v1/fences").size(), "no fence stands on the target");
        JsonNode fences = bed.agent(source, "/v1/fences");
        assertEquals(1, fences.size(), "the source stays fenced, its data the old copy: " + fences);
        before.assertUnchanged(bed, "killed the controller during the " + step);
        List<String> copies = bed.logSince(target, logged).stream().filter(l -> l.contains("copy of volume bulk of module tk from")).toList();
        List<String> cut = copies.stream().filter(l -> l.contains("was cut")).toList();
        if (!"verify".equals(step)) {
            // the dead controller's pass goes on without a caller unless the next pass of the volume cuts it
            assertEquals(1, cut.size(), "one pass of bulk on " + target + " was cut: " + copies);
            int at = copies.indexOf(cut.get(0));
            assertTrue(at + 1 < copies.size() && copies.get(at + 1).matches(".*: \\d+ bytes, \\d+ entries in .*"),
                    "the dead controller's pass was cut before the new one began, which went through: " + copies);
        } else {
            assertEquals(List.of(), cut, "no pass of bulk on " + target + " was cut: " + copies);
        }
        Map<String, String> copied = TakeIT.tree(bed.volume(target, "tk_files"));
        Map<String, String> files = TakeIT.tree(bed.volume(source, "tk_files"));
        copied.remove("markers.log");
        files.remove("markers.log");
        assertEquals(files, copied, "the target has the source's small files and links");
        assertEquals(TakeIT.tree(bed.volume(source, "tk_bulk")), TakeIT.tree(bed.volume(target, "tk_bulk")),
                "the target has the source's large file");
        assertEquals(Files.readString(bed.volume(source, "tk_files").resolve("markers.log")) + "started\n",
                Files.readString(bed.volume(target, "tk_files").resolve("markers.log")), "tk started once on the target, on the copy");
    }

    /**
     * Waits until the take stands at {@code step} held midway: a part of the large file on the target (pre-copy), the
     * large file whole there and the delta's archive held (copy), or a second in (verify).
     */
    void heldMidway(String source, String target, String step) throws Exception {
        PackagedMesh.await("the take reaches its " + step, Duration.ofSeconds(90), () -> quietly(() -> step.equals(bed.take(TK)
                .get("step").asText()) && source.equals(bed.take(TK).get("from").asText()) && bed.take(TK).get("active").asBoolean()));
        if (!"verify".equals(step)) {
            PackagedMesh.await("the copy's first chunk lands on " + target, Duration.ofSeconds(30),
                    () -> quietly(() -> Files.size(bed.volume(target, "tk_bulk").resolve("big.bin")) > 0));
        }
        Thread.sleep(1_500);
        assertEquals(step, bed.take(TK).get("step").asText(), "the hold keeps the take in its " + step);
        long landed = "verify".equals(step) ? 0 : Files.size(bed.volume(target, "tk_bulk").resolve("big.bin"));
        if ("pre-copy".equals(step)) {
            assertTrue(landed < LARGE_MB * 1024L * 1024L, "the stream is cut midway: " + landed + " bytes of the large file landed");
        } else if ("copy".equals(step)) {
            assertEquals(LARGE_MB * 1024L * 1024L, landed, "the pre-copy brought the large file whole before the fence");
        }
    }

    /** Source is the source's data as the take found it: every entry but tk's start marker, and the marker. */
    record Source(String node, Map<String, String> bulk, Map<String, String> files, String markers) {
        static Source of(TakeBed bed, String node) throws Exception {
            Map<String, String> files = TakeIT.tree(bed.volume(node, "tk_files"));
            files.remove("markers.log");
            return new Source(node, TakeIT.tree(bed.volume(node, "tk_bulk")), files,
                    Files.readString(bed.volume(node, "tk_files").resolve("markers.log")));
        }

        void assertUnchanged(TakeBed bed, String when) throws Exception {
            Source now = of(bed, node);
            assertEquals(bulk, now.bulk, "no byte of the source's large volume changed (" + when + ")");
            assertEquals(files, now.files, "no byte of the source's small files changed (" + when + ")");
            assertTrue(now.markers.startsWith(markers), "tk's start marker only grew (" + when + ")");
        }
    }
}
