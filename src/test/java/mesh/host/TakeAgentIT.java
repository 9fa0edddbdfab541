package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Duration;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import mesh.host.take.ManifestForm;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.Labels;
import mesh.model.Specs;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import mesh.model.VolumeManifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * TakeAgentIT shows the host agents' side of {@code mesh take} (docs/take.md, "On the nodes") on two
 * simulated nodes: real agents in n1's and n2's network namespaces, each keeping its node's own engine.
 * A module with a container volume of 2,000 small files, links, odd modes and owners, a fifo, user
 * xattrs and a 20 MB file is fenced on n1 (it stops; a re-sent declaration and a SIGKILLed, restarted
 * agent do not start it), copied to n2 agent to agent with a read ticket, compared by manifest (equal;
 * then one corrupted byte is named), rolled back on n2 only, and started on n1 again when the fence is
 * lifted. A process volume (a folder) is copied and forgotten too, and each refusal changes nothing. Last, a take
 * back into n1 while its declaration still runs the module, rolled back before its start, leaves the module fenced
 * there.
 *
 * <p>The agents run as nodes of their own names ({@code take-a-…}, {@code take-b-…}), so they see and
 * touch only what this test made on the engines, whatever else the test bed's nodes hold.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TakeAgentIT {

    static final int SMALL_FILES = 2_000;
    static final int LARGE_MB = 20;
    static final long EPOCH = 5;

    TwoAgents agents;
    String run;
    String module;
    String component;
    String nodeA;
    String nodeB;
    TestbedNodes.Node n1;
    TestbedNodes.Node n2;
    DockerClient docker1;
    DockerClient docker2;
    AgentProcess a;
    AgentProcess b;
    Path stateA;
    Path stateB;
    Path logs;
    long generationA;
    long generationB;
    String ticket;

    @BeforeAll
    void raiseTwoAgents() throws Exception {
        agents = new TwoAgents("take", "tk", "take-agent");
        run = agents.run;
        module = agents.module;
        component = module + ".app";
        nodeA = agents.nodeA;
        nodeB = agents.nodeB;
        n1 = agents.n1;
        n2 = agents.n2;
        docker1 = agents.docker1;
        docker2 = agents.docker2;
        a = agents.a;
        b = agents.b;
        stateA = agents.stateA;
        stateB = agents.stateB;
        logs = agents.logs;
    }

    @AfterAll
    void tearDown() throws Exception {
        if (agents != null) {
            agents.close();
        }
    }

    /** The module runs on n1 with its data: the container volume and a process volume (a folder). */
    @Test
    @Order(1)
    void theModuleRunsOnN1WithItsData() throws Exception {
        putA(List.of(app()));
        assertTrue(running(docker1, component), "the module runs on n1");
        fill(volumeFolder(docker1, "data"));
        Path files = stateA.resolve("volumes").resolve(module + "_files");
        Files.createDirectories(files.resolve("sub"));
        Files.writeString(files.resolve("sub/config.toml"), "answer = 42\n");
        Files.setPosixFilePermissions(files.resolve("sub/config.toml"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.createSymbolicLink(files.resolve("current"), Path.of("sub/config.toml"));
    }

    /** Without a fence nothing of the module is read: no ticket, no archive (agent token), nothing changed. */
    @Test
    @Order(2)
    void withoutAFenceNoTicketAndNoArchive() throws Exception {
        AgentProcess.Answer ticketAnswer = a.send("POST", "/v1/volumes/" + module + "/tickets", "{\"epoch\": 5}", null);
        assertEquals(409, ticketAnswer.status(), ticketAnswer.body());
        assertTrue(error(ticketAnswer).contains("module " + module + " is not fenced here"), ticketAnswer.body());
        AgentProcess.Answer archive = a.send("GET", "/v1/volumes/" + module + "/data/archive?kind=container", null, null);
        assertEquals(409, archive.status(), archive.body());
        assertTrue(error(archive).contains("volume data"), archive.body());
        assertTrue(running(docker1, component), "a refusal changes nothing");
    }

    /** The fence stops the module; a lower epoch is refused; the status says fenced. */
    @Test
    @Order(3)
    void theFenceStopsTheModuleAndALowerEpochIsRefused() throws Exception {
        AgentProcess.Answer fence = a.send("PUT", "/v1/fences/" + module, "{\"epoch\": " + EPOCH + "}", null);
        assertEquals(200, fence.status(), fence.body());
        assertEquals(List.of(component), texts(fence.json().get("stopped")));
        assertFalse(running(docker1, component), "fenced: stopped");
        assertEquals(200, a.send("PUT", "/v1/fences/" + module, "{\"epoch\": " + EPOCH + "}", null).status(), "idempotent");
        AgentProcess.Answer lower = a.send("PUT", "/v1/fences/" + module, "{\"epoch\": 4}", null);
        assertEquals(409, lower.status(), lower.body());
        assertEquals("a newer take (epoch 5) holds module " + module + " here; epoch 4 is refused and nothing was changed",
                error(lower));
        awaitState(a, "fenced");
    }

    /** A declaration re-sent does not start it, nor does an agent killed with SIGKILL and started again. */
    @Test
    @Order(4)
    void neitherADeclarationNorARestartedAgentStartsAFencedModule() throws Exception {
        putA(List.of(app()));
        Thread.sleep(3_000);   // three passes at the agent's 1 s interval
        assertFalse(running(docker1, component), "a re-sent declaration does not start a fenced module");
        a.kill();
        a.start(logs.resolve("a-2.log"), Duration.ofSeconds(60));
        Thread.sleep(3_000);
        assertFalse(running(docker1, component), "a restarted agent does not start a fenced module");
        JsonNode fences = a.get("/v1/fences").json();
        assertEquals(1, fences.size(), fences.toString());
        assertEquals(module, fences.get(0).get("module").asText());
        assertEquals(EPOCH, fences.get(0).get("epoch").asLong());
        awaitState(a, "fenced");
    }

    /** A ticket reads only its module; a copy onto a node where the module runs, or over foreign data, is refused. */
    @Test
    @Order(5)
    void aTicketReadsOnlyItsModuleAndACopyRefusesARunningModuleOrForeignData() throws Exception {
        ticket = a.send("POST", "/v1/volumes/" + module + "/tickets", "{\"epoch\": " + EPOCH + "}", null).json()
                .get("ticket").asText();
        assertTrue(ticket.matches("[0-9a-f]{64}"), ticket);
        assertEquals(409, a.send("POST", "/v1/volumes/" + module + "/tickets", "{\"epoch\": 6}", null).status(),
                "a ticket at another epoch than the fence's");
        assertEquals(401, a.send("GET", "/v1/volumes/other" + run + "/data/manifest?kind=container", null, ticket).status(),
                "a ticket of one module does not read another");
        assertEquals(401, a.send("GET", "/v1/fences", null, ticket).status(), "a ticket is no agent token");
        assertEquals(200, a.send("GET", "/v1/volumes/" + module + "/data/manifest?kind=container", null, ticket).status());

        putB(List.of(app()));   // the module runs on n2 too
        assertTrue(running(docker2, component));
        AgentProcess.Answer runs = copy("data", "container");
        assertEquals(409, runs.status(), runs.body());
        assertTrue(error(runs).contains("module " + module + " runs on this node"), runs.body());
        putB(List.of());
        assertFalse(running(docker2, component));

        Path foreign = stateB.resolve("volumes").resolve(module + "_files");
        Files.createDirectories(foreign);
        Files.writeString(foreign.resolve("mine.txt"), "not a take's");
        AgentProcess.Answer refused = copy("files", "process");
        assertEquals(409, refused.status(), refused.body());
        assertEquals("volume files of module " + module + " already holds data that no take left here; nothing was changed",
                error(refused));
        assertEquals("not a take's", Files.readString(foreign.resolve("mine.txt")), "a refused copy changes nothing");
        PackagedMesh.deleteTree(foreign);
    }

    /** The copy goes agent to agent; the manifests are equal, entry by entry and by digest. */
    @Test
    @Order(6)
    void theCopyArrivesWholeAndTheManifestsAreEqual() throws Exception {
        AgentProcess.Answer answer = copy("data", "container");
        assertEquals(200, answer.status(), answer.body());
        String[] lines = answer.body().strip().split("\n");
        JsonNode last = AgentProcess.JSON.readTree(lines[lines.length - 1]);
        assertTrue(last.path("done").asBoolean(false), answer.body());
        assertTrue(last.get("bytes").asLong() > LARGE_MB * 1_000_000L, last.toString());
        assertTrue(last.get("files").asLong() > SMALL_FILES, last.toString());

        VolumeManifest source = manifest(a, "data", "container", ticket);
        VolumeManifest target = manifest(b, "data", "container", null);
        assertEquals(source.digest(), target.digest());
        assertEquals(source.entries(), target.entries());
        assertEquals(ManifestForm.digest(target.entries()), target.digest(), "the digest is the entries' canonical form");
        assertTrue(source.files() > SMALL_FILES, "files: " + source.files());
        List<VolumeManifest.Entry> entries = source.entries();
        assertTrue(entries.stream().anyMatch(e -> "link".equals(e.type()) && "../big.bin".equals(e.link())), "a link");
        assertTrue(entries.stream().anyMatch(e -> e.uid() == 1234 && e.gid() == 5678), "an odd owner");
        assertTrue(entries.stream().anyMatch(e -> "4755".equals(e.mode())), "a setuid mode");
        assertTrue(entries.stream().anyMatch(e -> "1777".equals(e.mode()) && "dir".equals(e.type())), "a sticky folder");
        assertTrue(entries.stream().anyMatch(e -> "other".equals(e.type())), "a fifo");
        assertTrue(entries.stream().anyMatch(e -> e.xattrs().containsKey("user.mesh.note")), "an xattr");
        assertTrue(Files.readString(volumeFolder(docker2, "data").resolve("d07/f0007.txt")).startsWith("file 7 in 7"));

        JsonNode volumeB = docker2.inspectVolumeCmd(module + "_data").exec().getLabels() == null ? null
                : AgentProcess.JSON.valueToTree(docker2.inspectVolumeCmd(module + "_data").exec().getLabels());
        assertTrue(volumeB != null && volumeB.has(Labels.NODE), "the copy is the mesh's volume on n2: " + volumeB);
    }

    /** One corrupted byte on n2 makes the manifests differ, naming the path and field. */
    @Test
    @Order(7)
    void aCorruptedByteIsNamed() throws Exception {
        Path victim = volumeFolder(docker2, "data").resolve("d03/f0042.txt");
        byte[] bytes = Files.readAllBytes(victim);
        bytes[0] ^= 0x01;
        Files.write(victim, bytes);
        VolumeManifest source = manifest(a, "data", "container", ticket);
        VolumeManifest target = manifest(b, "data", "container", null);
        assertNotEquals(source.digest(), target.digest());
        String diff = ManifestForm.diff(source.entries(), target.entries()).orElseThrow();
        assertTrue(diff.startsWith("path d03/f0042.txt: sha256 differs"), diff);
    }

    /** Rollback deletes n2's copy only; forget-old of what is no old copy, and rollback on the source, are refused. */
    /**
     * The target's containers created before the take's fence (docs/take.md): created, never started, by a declaration
     * that has the module, by a pass, or by an agent SIGKILLed and started again, while the fence stands; the start's
     * lift (after the start declaration) starts them; a fence of the take's own (stop-target) refuses a create; lifted
     * with a declaration that has not the module, the pass removes them. Created again for the rollback below.
     */
    @Test
    @Order(8)
    void containersCreatedBeforeTheFenceStartOnlyOnceItIsLifted() throws Exception {
        AgentProcess.Answer created = createFencedOnB();
        assertEquals(200, created.status(), created.body());
        assertEquals(List.of(component), texts(created.json().get("created")));
        assertEquals("created", state(docker2, component), "created, not started");
        assertEquals(List.of(), texts(createFencedOnB().json().get("created")), "the same again creates nothing");
        sendB(List.of(app()));   // the start declaration, as the start sends it before its lift
        Thread.sleep(3_000);   // three passes at the agent's 1 s interval
        assertEquals("created", state(docker2, component), "the loop does not start it under the fence");
        b.kill();
        b.start(logs.resolve("b-2.log"), Duration.ofSeconds(60));
        Thread.sleep(3_000);
        assertEquals("created", state(docker2, component), "nor does an agent SIGKILLed and started again");

        assertTrue(b.send("DELETE", "/v1/fences/" + module + "?epoch=5", null, null).json().get("lifted").asBoolean());
        PackagedMesh.await("the lift starts the created container", Duration.ofSeconds(30),
                () -> "running".equals(state(docker2, component)));
        assertEquals(200, b.send("PUT", "/v1/fences/" + module, "{\"epoch\": " + EPOCH + "}", null).status(), "stop-target");
        assertEquals("exited", state(docker2, component));
        sendB(List.of());
        AgentProcess.Answer own = createFencedOnB();
        assertEquals(409, own.status(), own.body());
        assertTrue(b.send("DELETE", "/v1/fences/" + module + "?epoch=5", null, null).json().get("lifted").asBoolean());
        PackagedMesh.await("undeclared, the container is removed once the fence is lifted", Duration.ofSeconds(30),
                () -> state(docker2, component) == null);

        assertEquals(List.of(component), texts(createFencedOnB().json().get("created")), "for the rollback below");
        Thread.sleep(2_000);
        assertEquals("created", state(docker2, component), "undeclared but fenced: neither started nor removed");
    }

    @Test
    @Order(9)
    void rollbackDeletesOnlyTheTargetsCopy() throws Exception {
        String sourceDigest = manifest(a, "data", "container", ticket).digest();
        AgentProcess.Answer notOld = b.send("DELETE", "/v1/volumes/" + module + "/data?kind=container&epoch=5&reason=forget-old",
                null, null);
        assertEquals(409, notOld.status(), notOld.body());
        assertTrue(error(notOld).contains("is not recorded here as the old copy"), notOld.body());
        AgentProcess.Answer onSource = a.send("DELETE", "/v1/volumes/" + module + "/data?kind=container&epoch=5&reason=rollback",
                null, null);
        assertEquals(409, onSource.status(), onSource.body());
        assertTrue(error(onSource).contains("was not made here by the take at epoch 5"), onSource.body());

        AgentProcess.Answer rollback = b.send("DELETE", "/v1/volumes/" + module + "/data?kind=container&epoch=5&reason=rollback",
                null, null);
        assertEquals(200, rollback.status(), rollback.body());
        assertTrue(docker2.listVolumesCmd().exec().getVolumes().stream().noneMatch(v -> v.getName().equals(module + "_data")),
                "n2's copy is gone");
        assertEquals(sourceDigest, manifest(a, "data", "container", ticket).digest(), "n1's data is untouched");
        assertEquals(0, b.get("/v1/fences").json().size(), "the fence the containers were created under went with the copy");
        assertEquals(null, state(docker2, component), "and so did the containers");
    }

    /** A process volume (a folder) is copied the same way; recorded as an old copy, forget-old deletes it and nothing else. */
    @Test
    @Order(10)
    void aProcessVolumeIsCopiedAndForgotten() throws Exception {
        AgentProcess.Answer answer = copy("files", "process");
        assertEquals(200, answer.status(), answer.body());
        assertTrue(answer.body().contains("\"done\":true"), answer.body());
        VolumeManifest source = manifest(a, "files", "process", ticket);
        VolumeManifest target = manifest(b, "files", "process", null);
        assertEquals(source.entries(), target.entries());
        assertEquals(source.digest(), target.digest());

        AgentProcess.Answer old = b.send("POST", "/v1/volumes/" + module + "/old-copy",
                "{\"epoch\": 5, \"volumes\": [\"files\"]}", null);
        assertEquals(200, old.status(), old.body());
        JsonNode listed = b.get("/v1/volumes/" + module + "?kind=process").json();
        assertEquals(1, listed.size(), listed.toString());
        assertEquals(5, listed.get(0).get("oldCopyOf").asLong(), listed.toString());
        assertEquals(409, b.send("DELETE", "/v1/volumes/" + module + "/files?kind=process&epoch=4&reason=forget-old",
                null, null).status(), "another take's old copy");
        assertEquals(200, b.send("DELETE", "/v1/volumes/" + module + "/files?kind=process&epoch=5&reason=forget-old",
                null, null).status());
        assertFalse(Files.exists(stateB.resolve("volumes").resolve(module + "_files")), "the old copy is gone");
        assertTrue(Files.isRegularFile(stateA.resolve("volumes").resolve(module + "_files/sub/config.toml")), "n1's is not");

        JsonNode disk = b.get("/v1/disk").json();
        assertTrue(disk.get("free").asLong() > 0, disk.toString());
        assertEquals("/var/lib/mesh-" + n2.name() + "/docker", disk.get("engine").get("path").asText(), disk.toString());
    }

    /** Lifting the fence starts the module on n1 again, with its data; the ticket reads nothing any more. */
    @Test
    @Order(11)
    void liftingTheFenceStartsTheModuleAgain() throws Exception {
        AgentProcess.Answer lift = a.send("DELETE", "/v1/fences/" + module + "?epoch=5", null, null);
        assertEquals(200, lift.status(), lift.body());
        assertTrue(lift.json().get("lifted").asBoolean());
        PackagedMesh.await("the module runs on n1 again", Duration.ofSeconds(30), () -> running(docker1, component));
        assertEquals(401, a.send("GET", "/v1/volumes/" + module + "/data/manifest?kind=container", null, ticket).status(),
                "a lifted fence voids its tickets");
        assertFalse(a.send("DELETE", "/v1/fences/" + module + "?epoch=5", null, null).json().get("lifted").asBoolean());
        assertEquals(409, a.send("PUT", "/v1/fences/" + module, "{\"epoch\": 4}", null).status(), "the epoch is remembered");
    }

    /**
     * A take back into a node its push missed, rolled back before the start (docs/take.md, "A rollback before the
     * start"): n1 is a done take's source whose push did not reach it, so it still holds a declaration that runs the
     * module, fenced at that take's epoch, its copy recorded as the old copy. The take back (the module running on
     * n2) pre-copies into n1 and creates its containers there under a created fence at its own epoch, then rolls
     * back: its delete of n1's copy must leave the module fenced, or n1's next passes start it from that old
     * declaration (on a fresh volume) while it runs on n2.
     */
    @Test
    @Order(12)
    void aRollbackIntoANodeWhoseDeclarationRunsTheModuleLeavesItFenced() throws Exception {
        long first = EPOCH + 1;
        long back = EPOCH + 2;
        assertEquals(200, a.send("PUT", "/v1/fences/" + module, "{\"epoch\": " + first + "}", null).status(),
                "the first take's fence on its source");
        assertFalse(running(docker1, component));
        assertEquals(200, a.send("POST", "/v1/volumes/" + module + "/old-copy",
                "{\"epoch\": " + first + ", \"volumes\": [\"data\"]}", null).status(), "the first take's old copy");
        putB(List.of(app()));   // the module runs on n2, where the first take brought it
        assertTrue(running(docker2, component));
        Files.writeString(volumeFolder(docker2, "data").resolve("written-on-n2.txt"), "since the take\n");

        String live = b.send("POST", "/v1/volumes/" + module + "/live-tickets", "{\"epoch\": " + back + "}", null).json()
                .get("ticket").asText();
        AgentProcess.Answer pass = a.send("POST", "/v1/volumes/" + module + "/data/copy", "{\"epoch\": " + back
                + ", \"kind\": \"container\", \"from\": \"" + b.base() + "\", \"ticket\": \"" + live
                + "\", \"live\": true, \"delta\": false}", null);
        assertEquals(200, pass.status(), pass.body());
        assertTrue(pass.body().contains("\"done\":true"), pass.body());
        String d = DeclarationJson.write(new Declaration(nodeA, null, generationA + 1, List.of(app())));
        AgentProcess.Answer created = a.send("PUT", "/v1/fences/" + module + "/created",
                "{\"epoch\": " + back + ", \"declaration\": " + d + "}", null);
        assertEquals(200, created.status(), created.body());
        assertEquals(back, a.get("/v1/fences").json().get(0).get("epoch").asLong(), "the created fence replaced the first take's");

        AgentProcess.Answer rollback = a.send("DELETE", "/v1/volumes/" + module + "/data?kind=container&epoch=" + back
                + "&reason=rollback", null, null);
        assertEquals(200, rollback.status(), rollback.body());
        Thread.sleep(3_000);   // three passes at the agent's 1 s interval
        assertEquals(null, state(docker1, component), "nothing of the module is started on n1 from its old declaration");
        assertTrue(running(docker2, component), "while it runs on n2");
        JsonNode fences = a.get("/v1/fences").json();
        assertEquals(1, fences.size(), fences.toString());
        assertEquals(back, fences.get(0).get("epoch").asLong(), fences.toString());
        awaitState(a, "fenced");
    }

    // ---- helpers

    /** n2 fences the module at the take's epoch and creates its containers as the start declaration would have them. */
    AgentProcess.Answer createFencedOnB() throws Exception {
        String d = DeclarationJson.write(new Declaration(nodeB, null, generationB + 1, List.of(app())));
        return b.send("PUT", "/v1/fences/" + module + "/created", "{\"epoch\": " + EPOCH + ", \"declaration\": " + d + "}", null);
    }

    /** Sends n2 a declaration of {@code components} without waiting for it to converge (a fenced module does not). */
    void sendB(List<ComponentSpec> components) throws Exception {
        generationB++;
        AgentProcess.Answer put = b.put(DeclarationJson.write(new Declaration(nodeB, null, generationB, components)));
        assertEquals(201, put.status(), put.body());
    }

    /** The engine's state of the component's container ("created", "running", "exited"), or null when there is none. */
    String state(DockerClient docker, String name) {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(Labels.COMPONENT, name)).exec().stream()
                .map(com.github.dockerjava.api.model.Container::getState).findFirst().orElse(null);
    }

    ComponentSpec app() {
        return Specs.component(component).module(module).args("sleep", "100000").volume("data", "/data").stopTimeout(1).build();
    }

    void putA(List<ComponentSpec> components) throws Exception {
        generationA++;
        AgentProcess.Answer put = a.put(DeclarationJson.write(new Declaration(nodeA, null, generationA, components)));
        assertEquals(201, put.status(), put.body());
        if (generationA == 1 || !fenced()) {
            a.awaitConverged(generationA, Duration.ofSeconds(60));
        }
    }

    boolean fenced() throws Exception {
        return a.get("/v1/fences").json().size() > 0;
    }

    void putB(List<ComponentSpec> components) throws Exception {
        generationB++;
        AgentProcess.Answer put = b.put(DeclarationJson.write(new Declaration(nodeB, null, generationB, components)));
        assertEquals(201, put.status(), put.body());
        b.awaitConverged(generationB, Duration.ofSeconds(60));
    }

    AgentProcess.Answer copy(String volume, String kind) throws Exception {
        return b.send("POST", "/v1/volumes/" + module + "/" + volume + "/copy", "{\"epoch\": " + EPOCH + ", \"kind\": \"" + kind
                + "\", \"from\": \"" + a.base() + "\", \"ticket\": \"" + ticket + "\"}", null);
    }

    /**
     * A file some process maps shared and writable (here this test's own JVM, as LMDB's write map would) has no hash
     * kept for it by the agent's manifests: a second store into the page the first one dirtied sets no time on the
     * file, and the manifest the agent makes after it still gives the file's sha256 as it is now.
     */
    @Test
    @Order(20)
    void aManifestGivesTheBytesOfAFileWrittenThroughASharedMappingAsTheyAre() throws Exception {
        Path folder = Files.createDirectories(stateA.resolve("volumes").resolve(module + "_mapped"));
        Path file = Files.write(folder.resolve("data.mdb"), new byte[8192]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8192);
            map.put(0, (byte) 1);
            Thread.sleep(1_500);   // past the racy second of the manifest below
            assertEquals(sha256(file), mappedSha(manifest(a, "mapped", "process", null)), "the first manifest");
            map.put(1, (byte) 2);  // the page the first store dirtied: no fault, no new time on the file
            assertEquals(sha256(file), mappedSha(manifest(a, "mapped", "process", null)),
                    "the manifest after the second store gives the bytes as they are, not a hash kept from before it");
        } finally {
            PackagedMesh.deleteTree(folder);
        }
    }

    static String mappedSha(VolumeManifest m) {
        return m.entries().stream().filter(e -> "data.mdb".equals(e.path())).findFirst().orElseThrow().sha256();
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    VolumeManifest manifest(AgentProcess agent, String volume, String kind, String bearer) throws Exception {
        AgentProcess.Answer answer = agent.send("GET", "/v1/volumes/" + module + "/" + volume + "/manifest?kind=" + kind, null, bearer);
        assertEquals(200, answer.status(), answer.body());
        return AgentProcess.JSON.readValue(answer.body(), VolumeManifest.class);
    }

    void awaitState(AgentProcess agent, String state) throws InterruptedException {
        PackagedMesh.await("the status shows " + component + " " + state, Duration.ofSeconds(15), () -> {
            try {
                for (JsonNode c : agent.get("/v1/status").json().get("components")) {
                    if (c.get("name").asText().equals(component)) {
                        return state.equals(c.get("state").asText());
                    }
                }
                return false;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
    }

    boolean running(DockerClient docker, String name) {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(Labels.COMPONENT, name)).exec().stream()
                .anyMatch(c -> "running".equals(c.getState()));
    }

    Path volumeFolder(DockerClient docker, String volume) {
        return Path.of(docker.inspectVolumeCmd(module + "_" + volume).exec().getMountpoint());
    }

    /** 2,000 small files in 20 folders, links, odd modes and owners, a fifo, user xattrs and one large file. */
    static void fill(Path root) throws Exception {
        for (int d = 0; d < 20; d++) {
            Path dir = Files.createDirectories(root.resolve(String.format("d%02d", d)));
            for (int f = 0; f < SMALL_FILES / 20; f++) {
                Files.writeString(dir.resolve(String.format("f%04d.txt", f)), "file " + f + " in " + d + "\n".repeat(f % 7));
            }
        }
        byte[] big = new byte[LARGE_MB * 1024 * 1024];
        new Random(42).nextBytes(big);
        Files.write(root.resolve("big.bin"), big);
        Files.createSymbolicLink(root.resolve("d01/to-big"), Path.of("../big.bin"));
        Files.createSymbolicLink(root.resolve("dangling"), Path.of("nowhere/at/all"));
        Files.createSymbolicLink(root.resolve("d02-link"), Path.of("d02"));
        Path owned = root.resolve("d04/f0001.txt");
        Files.setAttribute(owned, "unix:uid", 1234, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(owned, "unix:gid", 5678, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(root.resolve("d05"), "unix:uid", 65534);
        Files.setAttribute(root.resolve("d06/f0003.txt"), "unix:mode", 04755);
        Files.setAttribute(root.resolve("d07"), "unix:mode", 01777);
        Files.setAttribute(root.resolve("d08/f0000.txt"), "unix:mode", 0600);
        Files.setAttribute(root.resolve("d09"), "unix:mode", 0751);
        Process mkfifo = new ProcessBuilder("mkfifo", root.resolve("pipe").toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor());
        for (Path p : List.of(root.resolve("d03/f0001.txt"), root.resolve("d03"))) {
            Files.getFileAttributeView(p, UserDefinedFileAttributeView.class)
                    .write("mesh.note", ByteBuffer.wrap("kept by take".getBytes(StandardCharsets.UTF_8)));
        }
    }

    static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }

    static String error(AgentProcess.Answer answer) {
        return answer.json().path("error").asText();
    }
}
