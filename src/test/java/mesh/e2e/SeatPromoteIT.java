package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import mesh.plan.SeatEpoch;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.InstalledNode;
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
 * SeatPromoteIT: a mesh that loses its seat keeps everything the seat acknowledged and works on (docs/seat.md,
 * must-shows 1 and 2 of the standby seat). An installed mesh of three nodes plus a standby: n1 the seat, n3 and n4,
 * each running modules with data, and n2 made the standby with {@code mesh seat add n2} (streaming, then synchronous),
 * which runs no module of its own; {@code mesh status} then names where the artifact store runs and that its content
 * is not on the standby, and a bundle pushed to it says so; the seat's module is backed up to a registry of its own on
 * n3; a secret set and an assignment made one second before the seat dies (its link cut, its
 * agent, its controller, every container and its engine SIGKILLed); {@code mesh seat promote n2} run on n2; the first verb
 * the new seat answers is timed from the promote's start (at most 30 s); the containers of n2 and n3 keep their ids;
 * the secret and the assignment are there. Then a push, a take between the surviving nodes, a restore of the dead
 * seat's module onto n3 and a backup of it work; a backup to the dead seat's registry says where that registry runs.
 * Last the old seat comes back: every agent refuses a change at its epoch, its controller's push is refused naming the
 * new epoch, and {@code mesh seat add n1} on the new seat makes it the standby (its deposed store and controller let
 * go), in sync.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class SeatPromoteIT {

    static final String LOOP = "trap 'exit 0' TERM; while :; do sleep 1; done";
    static final List<String> NODES = List.of("n1", "n2", "n3", "n4");
    static final List<String> SURVIVORS = List.of("n2", "n3", "n4");

    InstalledMesh mesh;
    String linkCut;
    long oldEpoch;
    Path dir;
    Map<String, String> afterPromote;

    @BeforeAll
    void raise() throws Exception {
        mesh = InstalledMesh.raise(4);
        hasReplicationTools(mesh.engine("n2"));
        hasReplicationTools(mesh.engine("n1"));   // the old seat becomes a standby at the end
    }

    @AfterAll
    void tearDown() throws Exception {
        if (mesh != null) {
            if (linkCut != null) {
                TestbedNodes.link(linkCut, true);
            }
            mesh.close();
            for (String n : NODES) {
                try (DockerClient d = TestbedNodes.client(mesh.testbed(n))) {
                    d.listVolumesCmd().exec().getVolumes().stream().filter(v -> v.getName().startsWith("mesh-standby"))
                            .forEach(v -> d.removeVolumeCmd(v.getName()).exec());
                } catch (RuntimeException e) {
                    // none on that node
                }
            }
        }
    }

    @Test
    @Order(1)
    void thePromotedStandbyHasEverythingTheSeatAcknowledged() throws Exception {
        dir = Files.createTempDirectory("mesh-promote");
        String offsite = "http://" + mesh.testbed("n3").address() + ":5000";
        Files.writeString(dir.resolve("keep.yaml"), busybox("keep", "    volumes: {data: /data}\n"));
        Files.writeString(dir.resolve("late.yaml"), busybox("late", ""));
        Files.writeString(dir.resolve("fourth.yaml"), busybox("fourth", "    volumes: {data: /data}\n"));
        Files.writeString(dir.resolve("seatdata.yaml"), busybox("seatdata", "    volumes: {data: /data}\n")
                .replace("components:", "backup: {registry: \"" + offsite + "\"}\ncomponents:"));
        Files.writeString(dir.resolve("offsite.yaml"), "module: offsite\ncomponents:\n  offsite.registry:\n"
                + "    image: mesh-test/registry:2\n    volumes: {data: /var/lib/registry}\n    ports: [5000]\n"
                + "    health: {http: /v2/, port: 5000}\n    stop-timeout: 5s\n");
        mesh.ok("catalogue", "add", dir.toString());
        mesh.ok("assign", "n3", "keep");
        mesh.ok("assign", "n3", "offsite");
        mesh.ok("assign", "n1", "seatdata");
        mesh.ok("assign", "n4", "fourth");
        mesh.ok("push");
        PackagedMesh.await("seatdata runs on the seat", Duration.ofSeconds(60), () -> running("n1", "seatdata.server"));
        exec("n1", "seatdata.server", "echo written-on-the-seat > /data/f && sync");
        PackagedMesh.await("keep and fourth run", Duration.ofSeconds(60), () -> running("n3", "keep.server") && running("n4", "fourth.server"));
        exec("n3", "keep.server", "echo written-on-n3 > /data/f && sync");
        exec("n4", "fourth.server", "echo written-on-n4 > /data/f && sync");
        PackagedMesh.await("the registry on n3 answers", Duration.ofSeconds(60), () -> running("n3", "offsite.registry"));
        oldEpoch = ControllerEpochIT.epoch(InstalledTls.store(mesh));

        String added = mesh.ok("seat", "add", "n2");
        System.out.println("SeatPromoteIT: " + added.strip().replace("\n", "\nSeatPromoteIT: "));
        PackagedMesh.await("the standby is in sync and synchronous", Duration.ofSeconds(180),
                () -> mesh.mesh("status").out().contains("standby n2: in sync, synchronous"));
        theArtifactStoreSaysItsContentIsOnTheSeatOnly(offsite);

        Map<String, String> before = containers(SURVIVORS);
        PackagedMesh.Result set = mesh.meshWithInput("acknowledged-by-the-seat", "secret", "set", "keep", "token");
        assertEquals(0, set.exit(), set.toString());
        mesh.ok("assign", "n3", "late");
        Thread.sleep(1000);
        killSeat();

        InstalledNode n2 = mesh.node("n2");
        long t0 = System.nanoTime();
        PackagedMesh.Result promote = n2.mesh(List.of("seat", "promote", "n2", "--state-dir", n2.state().toString()));
        assertEquals(0, promote.exit(), promote.toString());
        assertTrue(promote.out().contains("no mark from the seat that this standby was out of sync reached it"), "the promote says"
                + " what it may lose, and the standby was in sync: " + promote);
        System.out.println("SeatPromoteIT: " + promote.out().strip().replace("\n", "\nSeatPromoteIT: "));
        PackagedMesh.Result secrets = n2.mesh(List.of("secret", "list", "keep"));
        double firstVerb = (System.nanoTime() - t0) / 1e9;
        System.out.printf("SeatPromoteIT: first verb answered by the promoted seat %.1f s after the promote began%n", firstVerb);
        assertEquals(0, secrets.exit(), secrets.toString());
        assertTrue(secrets.out().contains("token"), "the secret set one second before the seat died is there: " + secrets);
        assertTrue(firstVerb <= 30, "the first verb within 30 s of the promote: " + firstVerb + " s");

        PackagedMesh.Result roster = n2.mesh(List.of("catalogue", "list"));
        assertTrue(roster.out().lines().anyMatch(l -> l.contains("late") && l.contains("n3")),
                "the assignment made one second before the seat died is there: " + roster);
        assertEquals(before, containers(SURVIVORS), "every container on the surviving nodes keeps its id");
        assertEquals("written-on-n3", exec("n3", "keep.server", "cat /data/f").strip(), "n3's data is there");
        assertEquals("written-on-n4", exec("n4", "fourth.server", "cat /data/f").strip(), "n4's data is there");
    }

    /**
     * The artifact store on the seat only (docs/seat.md, "The artifact store and the standby"): {@code mesh status} names
     * where it runs and that its content is not on the standby (in -o json on the node that runs it); a bundle pushed to
     * it says so in one line; a backup to another registry (the seat module's, on n3) says nothing of it.
     */
    private void theArtifactStoreSaysItsContentIsOnTheSeatOnly(String offsite) throws Exception {
        PackagedMesh.Result status = mesh.mesh("status");
        assertTrue(status.out().contains("artifact store: mesh-registry on n1 (http://" + mesh.testbed("n1").address()
                + ":5000); its content (bundles, the controller's bundle, backups to it) is on n1 only, not replicated to the"
                + " standby n2: a promote will not find it while n1 is lost"), status.toString());
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(mesh.mesh("status", "-o", "json").out());
        for (com.fasterxml.jackson.databind.JsonNode n : json) {
            com.fasterxml.jackson.databind.JsonNode store = n.get("artifactStore");
            if (n.get("node").get("name").asText().equals("n1")) {
                assertEquals("n1", store.get("node").asText(), n.toString());
                assertEquals(0, store.get("copiedTo").size(), "its content is nowhere else: " + n);
                assertEquals("n2", store.get("standbys").get(0).asText(), n.toString());
            } else {
                assertTrue(store == null || store.isNull(), "only the node that runs it carries the artifact store: " + n);
            }
        }
        Path file = Files.writeString(dir.resolve("hello.sh"), "#!/bin/sh\necho hello\n");
        file.toFile().setExecutable(true);
        PackagedMesh.Result bundle = mesh.mesh("bundle", "push", file.toString(), "it/seatnote:1");
        assertEquals(0, bundle.exit(), bundle.toString());
        assertTrue(bundle.err().contains("mesh: bundle " + bundle.out().strip() + " stored on n1's artifact store only; a promote"
                + " of n2 will not find it while n1 is lost"), "a bundle pushed to the seat's artifact store says so: " + bundle);
        PackagedMesh.Result backedUp = mesh.mesh("backup", "seatdata", "--wait");
        assertEquals(0, backedUp.exit(), backedUp.toString());
        assertTrue(backedUp.out().contains(offsite), "the seat's module backed up to the registry on n3: " + backedUp);
        assertTrue(!backedUp.err().contains("artifact store only"), "a backup to another registry says nothing of it: " + backedUp);
    }

    /** Must-show 1's rest: on the promoted seat a push, a take between surviving nodes, a restore of the dead seat's module and a backup work. */
    @Test
    @Order(2)
    void afterThePromoteEveryVerbWorks() throws Exception {
        InstalledNode n2 = mesh.node("n2");
        Path more = Files.createDirectories(dir.resolve("after"));
        Files.writeString(more.resolve("after.yaml"), busybox("after", ""));
        seatOk(n2, "catalogue", "add", more.toString());
        seatOk(n2, "assign", "n2", "after");
        String push = seatOk(n2, "push");
        System.out.println("SeatPromoteIT: push on the promoted seat: " + push.strip().replace("\n", " | "));
        PackagedMesh.await("after runs on n2", Duration.ofSeconds(60), () -> running("n2", "after.server"));

        String take = seatOk(n2, "take", "n2", "keep");
        System.out.println("SeatPromoteIT: take on the promoted seat: " + take.strip().replace("\n", " | "));
        PackagedMesh.await("keep runs on n2", Duration.ofSeconds(60), () -> running("n2", "keep.server"));

        String restore = seatOk(n2, "restore", "seatdata", "--to", "n3", "--down", "n1");
        System.out.println("SeatPromoteIT: restore of the dead seat's module: " + restore.strip().replace("\n", " | "));
        PackagedMesh.await("seatdata runs on n3", Duration.ofSeconds(60), () -> running("n3", "seatdata.server"));
        assertEquals("written-on-the-seat", exec("n3", "seatdata.server", "cat /data/f").strip(), "the dead seat's data, restored on n3");

        // the bundle pushed while n1 was the seat lived on n1's artifact store only: the new seat cannot reach it
        PackagedMesh.Result bundles = n2.mesh(List.of("bundle", "list"));
        assertTrue(bundles.exit() != 0 && bundles.err().contains("http://" + mesh.testbed("n1").address() + ":5000")
                && bundles.err().contains("does not answer"), "the dead seat's artifact store is out of reach: " + bundles);
        assertTrue(n2.mesh(List.of("status")).out().contains("artifact store: mesh-registry on n1"), "status names where it runs");

        String backup = seatOk(n2, "backup", "seatdata", "--wait");
        System.out.println("SeatPromoteIT: backup on the promoted seat: " + backup.strip().replace("\n", " | "));
        PackagedMesh.Result lost = n2.mesh(List.of("backup", "keep", "--wait"));
        assertTrue(lost.exit() != 0 && (lost.out() + lost.err()).contains("mesh-registry on n1"),
                "a backup to the dead seat's registry says where that registry runs: " + lost);
        afterPromote = containers(SURVIVORS);
    }

    /** Must-show 2: the old seat back changes nothing, and one verb on the new seat makes it the standby, in sync. */
    @Test
    @Order(3)
    void theOldSeatComesBackAsTheStandby() throws Exception {
        InstalledNode n2 = mesh.node("n2");
        TestbedNodes.link(linkCut, true);
        linkCut = null;
        TestbedNodes.startEngine(mesh.testbed("n1").name());   // as a reboot would: the engine first (it starts nothing:
        mesh.startAgent("n1", Map.of());                        // restart policy no), then the agent, which starts its store and controller
        long newEpoch = Long.parseLong(Files.readString(n2.state().resolve("host/controller-epoch")).strip().split(" ")[0]);
        PackagedMesh.await("n1's agent records the new seat's epoch", Duration.ofSeconds(60), () -> quietly(() -> {
            n2.mesh(List.of("status"));
            return Files.readString(mesh.node("n1").state().resolve("host/controller-epoch")).startsWith(newEpoch + " n2 ");
        }));
        for (String n : NODES) {
            HttpResponse<String> r = changeAtOldEpoch(n);
            assertEquals(409, r.statusCode(), n + "'s agent refuses a change at the old epoch: " + r.body());
            assertTrue(r.body().contains("DEPOSED") && r.body().contains("at epoch " + newEpoch), n + ": " + r.body());
        }
        java.util.concurrent.atomic.AtomicReference<PackagedMesh.Result> last = new java.util.concurrent.atomic.AtomicReference<>();
        long began = System.nanoTime();
        try {
            PackagedMesh.await("the old seat's controller refuses its push, naming the new epoch", Duration.ofSeconds(120), () -> {
                last.set(mesh.mesh("push"));
                return last.get().exit() != 0 && (last.get().out() + last.get().err()).contains("was replaced by the seat on n2 at epoch " + newEpoch);
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the last push: " + last.get() + "\nn1's agent log:\n" + tail(mesh.agentLog("n1")), e);
        }
        System.out.printf("SeatPromoteIT: the old seat's controller refused its push %.1f s after its agent started%n", (System.nanoTime() - began) / 1e9);
        PackagedMesh.Result any = mesh.mesh("node", "list");
        assertTrue(any.exit() != 0 && any.err().contains("this controller was deposed by a promoted seat, and changes nothing"), any.toString());
        assertEquals(afterPromote, containers(SURVIVORS), "the old seat's controller changed nothing on n2, n3 and n4");

        ProcessHandle deposed = mesh.controllerJvm();   // the deposed controller, which n1's agent started again
        String added = seatOk(n2, "seat", "add", "n1");
        System.out.println("SeatPromoteIT: " + added.strip().replace("\n", "\nSeatPromoteIT: "));
        assertTrue(added.contains("n1 was a seat"), added);
        long t0 = System.nanoTime();
        PackagedMesh.await("the old seat is the new seat's standby, in sync", Duration.ofSeconds(240),
                () -> quietly(() -> n2.mesh(List.of("status")).out().contains("standby n1: in sync, synchronous")));
        System.out.printf("SeatPromoteIT: the old seat in sync as the standby %.1f s after seat add%n", (System.nanoTime() - t0) / 1e9);
        DockerClient d = mesh.engine("n1");
        assertTrue(d.listContainersCmd().exec().stream().noneMatch(c -> "mesh-store".equals(c.getLabels().get("mesh.module"))),
                "the deposed store runs no more on n1");
        assertTrue(d.listVolumesCmd().exec().getVolumes().stream().anyMatch(v -> v.getName().equals("mesh-store_data")),
                "the deposed store's volume is kept aside");
        PackagedMesh.await("the deposed controller is stopped by the push", Duration.ofSeconds(60), () -> !deposed.isAlive());
    }

    /**
     * Must-show 3: the seat (n2 now) cut off, not dead, while its standby (n1) is promoted: once the link is back, every
     * agent that has seen the newest epoch refuses the cut-off seat's changes, and the cut-off seat's own verbs refuse.
     */
    @Test
    @Order(4)
    void aSeatCutOffWhileItsStandbyIsPromotedChangesNothingOnceItsLinkIsBack() throws Exception {
        InstalledNode n1 = mesh.node("n1");
        InstalledNode n2 = mesh.node("n2");
        long cutEpoch = Long.parseLong(Files.readString(n2.state().resolve("host/controller-epoch")).strip().split(" ")[0]);
        linkCut = mesh.testbed("n2").name();
        TestbedNodes.link(linkCut, false);   // n2's agent, controller and store keep running, unreachable
        PackagedMesh.Result promote = n1.mesh(List.of("seat", "promote", "n1", "--state-dir", n1.state().toString()));
        assertEquals(0, promote.exit(), promote.toString());
        System.out.println("SeatPromoteIT: " + promote.out().strip().replace("\n", "\nSeatPromoteIT: "));
        long newest = Long.parseLong(Files.readString(n1.state().resolve("host/controller-epoch")).strip().split(" ")[0]);
        assertTrue(newest > cutEpoch, "the promote chose an epoch above the cut-off seat's: " + newest + " > " + cutEpoch);
        TestbedNodes.link(linkCut, true);
        linkCut = null;
        PackagedMesh.await("the cut-off seat's agent records the newest epoch", Duration.ofSeconds(60), () -> quietly(() -> {
            n1.mesh(List.of("status"));
            return Files.readString(n2.state().resolve("host/controller-epoch")).startsWith(newest + " n1 ");
        }));
        for (String n : NODES) {
            HttpResponse<String> r = changeAt(n, cutEpoch, "n2");
            assertEquals(409, r.statusCode(), n + "'s agent refuses the cut-off seat's change: " + r.body());
            assertTrue(r.body().contains("at epoch " + newest), n + ": " + r.body());
        }
        Map<String, String> cutOff = new java.util.HashMap<>(mesh.cliEnv());
        cutOff.put("MESH_CONTROLLER", "https://" + mesh.testbed("n2").address() + ":7700");
        PackagedMesh.await("the cut-off seat's push is refused, naming the newest epoch", Duration.ofSeconds(60), () -> {
            PackagedMesh.Result push = PackagedMesh.run(cutOff, "push");
            return push.exit() != 0 && (push.out() + push.err()).contains("was replaced by the seat on n1 at epoch " + newest);
        });
        PackagedMesh.Result any = PackagedMesh.run(cutOff, "catalogue", "list");
        assertTrue(any.exit() != 0 && any.err().contains("this controller was deposed by a promoted seat, and changes nothing"),
                "the cut-off seat's verbs refuse once its link is back: " + any);
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (java.io.IOException e) {
            return "(no log at " + log + ")";
        }
    }

    /** {@code look}'s answer, false when it throws (a look to retry). */
    static boolean quietly(java.util.concurrent.Callable<Boolean> look) {
        try {
            return look.call();
        } catch (Exception e) {
            return false;
        }
    }

    static String busybox(String module, String more) {
        return "module: " + module + "\ncomponents:\n  " + module + ".server:\n    image: mesh-test/busybox:1\n"
                + "    args: [sh, -c, \"" + LOOP + "\"]\n" + more + "    stop-timeout: 1s\n";
    }

    /** A verb run on the promoted seat's machine (its operator's config names the new seat first), which must succeed. */
    static String seatOk(InstalledNode n, String... args) throws Exception {
        PackagedMesh.Result r = n.mesh(List.of(args));
        assertEquals(0, r.exit(), String.join(" ", args) + ": " + r);
        return r.out();
    }

    private boolean running(String node, String name) {
        return mesh.engine(node).listContainersCmd().exec().stream().anyMatch(c -> List.of(c.getNames()).contains("/" + name));
    }

    /** {@code sh -c script} in a container of {@code node}; its stdout. */
    private String exec(String node, String container, String script) throws Exception {
        DockerClient d = mesh.engine(node);
        String id = d.execCreateCmd(container).withCmd("sh", "-c", script).withAttachStdout(true).withAttachStderr(true).exec().getId();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        d.execStartCmd(id).exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Frame>() {
            @Override
            public void onNext(com.github.dockerjava.api.model.Frame f) {
                out.writeBytes(f.getPayload());
            }
        }).awaitCompletion(30, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(0L, d.inspectExecCmd(id).exec().getExitCodeLong(), script + " in " + container + " on " + node + ": " + out);
        return out.toString();
    }

    /** A change (a declaration) sent to {@code node}'s agent as the old seat's controller would: its certificate, its epoch. */
    private HttpResponse<String> changeAtOldEpoch(String node) throws Exception {
        return changeAt(node, oldEpoch, "n1");
    }

    /** A change sent to {@code node}'s agent as the controller of {@code seat} at {@code epoch} would. */
    private HttpResponse<String> changeAt(String node, long epoch, String seat) throws Exception {
        HttpClient http = HttpClient.newBuilder().sslContext(mesh.seatTls().clientContext("controller"))
                .connectTimeout(Duration.ofSeconds(10)).build();
        return http.send(HttpRequest.newBuilder(URI.create("https://" + mesh.testbed(node).address() + ":7701/v1/declaration"))
                .header("Content-Type", "application/json").header(SeatEpoch.EPOCH_HEADER, Long.toString(epoch))
                .header(SeatEpoch.SEAT_HEADER, seat).PUT(HttpRequest.BodyPublishers.ofString("{}"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The seat's machine dies: its link cut; its agent, its controller, every container and its engine SIGKILLed. */
    private void killSeat() throws Exception {
        linkCut = mesh.testbed("n1").name();
        TestbedNodes.link(linkCut, false);
        mesh.killAgent("n1");
        try {
            mesh.killController();
        } catch (AssertionError e) {
            // already gone with its agent
        }
        DockerClient d = mesh.engine("n1");
        for (Container c : d.listContainersCmd().exec()) {
            d.killContainerCmd(c.getId()).exec();
        }
        TestbedNodes.killEngine(linkCut);   // and whatever the engine still held: dockerd, containerd, shims
    }

    /** Each running container of the nodes, name to id. */
    private Map<String, String> containers(List<String> nodes) {
        return nodes.stream().flatMap(n -> mesh.engine(n).listContainersCmd().exec().stream())
                .collect(Collectors.toMap(c -> c.getNames()[0], Container::getId, (a, b) -> a, java.util.TreeMap::new));
    }

    /**
     * The test bed's store image has PostgreSQL's replication tools ({@code pg_basebackup}, {@code pg_rewind}): recipe 6 of
     * scripts/testbed and later (its label), which the standby needs; an older one is refused here, before the mesh is used.
     */
    static void hasReplicationTools(DockerClient engine) {
        String recipe = engine.inspectImageCmd("mesh-test/postgres:15").exec().getConfig().getLabels().get("mesh.testbed.recipe");
        assertTrue(recipe != null && Integer.parseInt(recipe) >= 6, "mesh-test/postgres:15 of recipe " + recipe
                + " has no pg_basebackup: run scripts/testbed up (recipe 6)");
    }
}
