package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.Specs;
import mesh.model.VolumeManifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * TakeRangesIT shows a take's deltas by range (docs/take.md, "Deltas by range") between two real agents on two
 * simulated nodes: a module's volume with a 64 MiB file and an 8 MiB one is pre-copied whole while it runs; then the
 * large file grows by 3 MiB and has one byte changed in its middle, the other is cut to 5.5 MiB, a small file is
 * rewritten; after the fence the delta sends only the changed block, the tail, the cut block and the small file's
 * archive (4.5 MiB and a few KiB, not 72.5 MiB), and both sides' manifests (every file's sha256) are equal.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TakeRangesIT {

    static final int MIB = 1 << 20;
    static final long EPOCH = 5;

    TwoAgents agents;
    String run;
    String module;
    String component;
    String nodeA;
    String nodeB;
    DockerClient docker1;
    DockerClient docker2;
    AgentProcess a;
    AgentProcess b;
    long since;

    @BeforeAll
    void raiseTwoAgents() throws Exception {
        agents = new TwoAgents("ranges", "tr", "take-ranges");
        run = agents.run;
        module = agents.module;
        component = module + ".app";
        nodeA = agents.nodeA;
        nodeB = agents.nodeB;
        docker1 = agents.docker1;
        docker2 = agents.docker2;
        a = agents.a;
        b = agents.b;
    }

    @AfterAll
    void tearDown() throws Exception {
        if (agents != null) {
            agents.close();
        }
    }

    /** The module runs on n1; its volume is pre-copied whole to n2 while it runs. */
    @Test
    @Order(1)
    void thePreCopySendsTheVolumeWhole() throws Exception {
        ComponentSpec app = Specs.component(component).module(module).args("sleep", "100000").volume("data", "/data")
                .stopTimeout(1).build();
        AgentProcess.Answer put = a.put(DeclarationJson.write(new Declaration(nodeA, null, 1, List.of(app))));
        assertEquals(201, put.status(), put.body());
        a.awaitConverged(1, Duration.ofSeconds(60));
        Path data = volumeFolder(docker1);
        Files.write(data.resolve("db"), random(64 * MIB, 1));
        Files.write(data.resolve("wal"), random(8 * MIB, 2));
        Files.writeString(data.resolve("note.txt"), "before\n");
        Thread.sleep(2_100);   // the files' times lie over a second before the pass: not "racily clean" for the next

        String live = a.send("POST", "/v1/volumes/" + module + "/live-tickets", "{\"epoch\": " + EPOCH + "}", null).json()
                .get("ticket").asText();
        JsonNode last = copy(live, true, false);
        assertTrue(last.get("bytes").asLong() >= 72 * MIB, last.toString());
        since = last.get("since").asLong();
        assertTrue(since > 0, last.toString());
    }

    /**
     * After the fence, the delta sends only the blocks that changed: one in the middle, the appended tail, the cut
     * block of the truncated file, and the small file whole; the copies are byte-identical (manifests equal).
     */
    @Test
    @Order(2)
    void afterTheFenceOnlyTheChangedRangesAreSentAndTheCopyIsIdentical() throws Exception {
        Path data = volumeFolder(docker1);
        try (FileChannel db = FileChannel.open(data.resolve("db"), StandardOpenOption.WRITE)) {
            db.write(java.nio.ByteBuffer.wrap(new byte[] {42}), 20L * MIB + 7);   // block 20 changed in place
            db.write(java.nio.ByteBuffer.wrap(random(3 * MIB, 3)), 64L * MIB);   // 3 MiB appended
        }
        try (FileChannel wal = FileChannel.open(data.resolve("wal"), StandardOpenOption.WRITE)) {
            wal.truncate(5 * MIB + MIB / 2);   // cut inside block 5
        }
        Files.writeString(data.resolve("note.txt"), "after\n");

        AgentProcess.Answer fence = a.send("PUT", "/v1/fences/" + module, "{\"epoch\": " + EPOCH + "}", null);
        assertEquals(200, fence.status(), fence.body());
        String ticket = a.send("POST", "/v1/volumes/" + module + "/tickets", "{\"epoch\": " + EPOCH + "}", null).json()
                .get("ticket").asText();
        JsonNode last = copy(ticket, false, true);
        long ranges = MIB + 3L * MIB + MIB / 2;
        long bytes = last.get("bytes").asLong();
        assertTrue(bytes >= ranges && bytes < ranges + 64 * 1024,
                "only the changed ranges (" + ranges + " bytes) and a small archive were sent, not 72.5 MiB: " + last);

        VolumeManifest source = manifest(a, ticket);
        VolumeManifest target = manifest(b, null);
        assertEquals(source.entries(), target.entries(), "every entry, with its sha256, is the same on n2");
        assertEquals(source.digest(), target.digest());
        Path copy = volumeFolder(docker2);
        assertEquals(-1, Files.mismatch(data.resolve("db"), copy.resolve("db")), "db is byte-identical");
        assertEquals(67L * MIB, Files.size(copy.resolve("db")));
        assertEquals(5L * MIB + MIB / 2, Files.size(copy.resolve("wal")), "the cut reached the copy");
        assertEquals("after\n", Files.readString(copy.resolve("note.txt")));
    }

    // ---- helpers

    /** One pass of the copy onto n2; its final line, which must say done. */
    JsonNode copy(String ticket, boolean live, boolean delta) throws Exception {
        AgentProcess.Answer answer = b.send("POST", "/v1/volumes/" + module + "/data/copy", "{\"epoch\": " + EPOCH
                + ", \"kind\": \"container\", \"from\": \"" + a.base() + "\", \"ticket\": \"" + ticket + "\", \"live\": "
                + live + ", \"delta\": " + delta + ", \"since\": " + since + "}", null);
        assertEquals(200, answer.status(), answer.body());
        String[] lines = answer.body().strip().split("\n");
        JsonNode last = AgentProcess.JSON.readTree(lines[lines.length - 1]);
        assertTrue(last.path("done").asBoolean(false), answer.body());
        return last;
    }

    VolumeManifest manifest(AgentProcess agent, String bearer) throws Exception {
        AgentProcess.Answer answer = agent.send("GET", "/v1/volumes/" + module + "/data/manifest?kind=container", null, bearer);
        assertEquals(200, answer.status(), answer.body());
        return AgentProcess.JSON.readValue(answer.body(), VolumeManifest.class);
    }

    Path volumeFolder(DockerClient docker) {
        return Path.of(docker.inspectVolumeCmd(module + "_data").exec().getMountpoint());
    }

    static byte[] random(int n, long seed) {
        byte[] bytes = new byte[n];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
