package mesh.host.process;

import static mesh.host.process.SupervisorFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.model.InvalidInput;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ProcessSupervisorIT runs real processes under the supervisor: a busybox httpd that binds two names, a
 * second apply and a second supervisor that both touch nothing, a decoy whose pid sits in a record and is
 * never signalled, stops of a process that handles TERM and of one that ignores it, and stops and a replace of
 * scripts that leave a worker in their process group.
 */
class ProcessSupervisorIT {

    static final Map<String, String> HOSTS = Map.of("db.internal", "10.1.2.3", "api.zurag.be", "10.1.2.4");

    SupervisorFixture fx;

    @BeforeEach
    void setUp() throws IOException {
        fx = new SupervisorFixture();
        // serves its data dir; first notes what it resolves, so the test can see it
        fx.script("server", String.join("\n",
                "cat /etc/hosts > ./hosts.seen",
                "getent hosts db.internal > ./db.resolved",
                "echo 'hello from the server' > ./index.html",
                "readlink /proc/self/ns/mnt > ./mnt.ns",
                "echo \"serving on $1\"",
                "exec /bin/busybox httpd -f -p 127.0.0.1:$1 -h \"$PWD\""));
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
    }

    @Test
    void startsResolvesExactlyItsNamesListensAndASecondApplyOrSupervisorTouchesNothing() throws Exception {
        String hostsBefore = Files.readString(Path.of("/etc/hosts"));
        int port = SupervisorFixture.freePort();
        ProcessSpec spec = fx.spec("web.server", "server", List.of(Integer.toString(port), fx.root.toString()), HOSTS, 5000);
        ProcessSupervisor supervisor = fx.supervisor();

        ProcessSupervisor.Outcome first = supervisor.apply(spec, Instant.now());
        assertEquals("started", String.valueOf(first.action()));
        Path data = Path.of(spec.dataDir());
        await("the server answers on port " + port, Duration.ofSeconds(10), () -> answers(port));
        assertEquals("hello from the server\n", get(port));

        String seen = Files.readString(data.resolve("hosts.seen"));
        assertEquals(spec.hostsFile(), seen);
        assertTrue(Files.readString(data.resolve("db.resolved")).startsWith("10.1.2.3"), "getent resolves db.internal via its hosts file");
        assertEquals(hostsBefore, Files.readString(Path.of("/etc/hosts")), "the host's /etc/hosts is unchanged");
        assertFalse(hostsBefore.contains("db.internal"));
        assertNotEquals(Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")).toString(),
                Files.readString(data.resolve("mnt.ns")).trim(), "it runs in a mount namespace of its own");

        ProcessRecord record = fx.record("web.server");
        assertEquals(first.pid(), record.pid());
        ProcInfo shim = fx.host.inspect(record.pid()).orElseThrow();
        assertEquals(record.pid(), shim.session(), "the shim leads a session of its own");
        assertNotEquals(ProcessHandle.current().pid(), shim.processGroup());
        assertEquals(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim(), record.bootId());
        assertEquals(shim.startTime(), record.startTime());

        ProcessSupervisor.Outcome again = supervisor.apply(spec, Instant.now());
        assertEquals("kept", String.valueOf(again.action()));
        assertEquals(record.pid(), again.pid());
        assertEquals(record, fx.record("web.server"), "a second apply writes nothing new");

        ProcessSupervisor restartedAgent = fx.supervisor();
        ProcessSupervisor.Outcome adopted = restartedAgent.apply(spec, Instant.now());
        assertEquals("kept", String.valueOf(adopted.action()));
        assertEquals(record.pid(), adopted.pid());
        assertEquals(record.startTime(), fx.host.inspect(adopted.pid()).orElseThrow().startTime());
        assertEquals(1, fx.copies(record.cmdline()), "exactly one shim");
        assertEquals(1, fx.servers().size(),
                "exactly one server");

        ProcessStatus status = restartedAgent.status(Instant.now()).get(0);
        assertEquals(mesh.model.ProcessState.RUNNING, status.state());
        assertEquals(record.pid(), status.pid());
        assertEquals(0, status.restarts());
        assertTrue(restartedAgent.logs("web.server").lastLines(5).contains("serving on " + port));
    }

    @Test
    void aDecoyWhosePidIsInARecordIsNeverSignalled() throws Exception {
        Process decoy = new ProcessBuilder("setsid", "sleep", "300").start();
        try {
            await("the decoy runs", Duration.ofSeconds(5), () -> fx.host.inspect(decoy.pid())
                    .map(p -> p.cmdline().equals(List.of("sleep", "300"))).orElse(false));
            ProcInfo d = fx.host.inspect(decoy.pid()).orElseThrow();
            ProcessSpec spec = fx.spec("decoy.victim", "server", List.of(Integer.toString(SupervisorFixture.freePort()),
                    fx.root.toString()), HOSTS, 1000);
            LaunchCommand command = LaunchCommand.of(spec, fx.root.resolve("x"), fx.root.resolve("y"));
            // a record that names the decoy's pid, as if the pid had been reused: another start time, and once the right
            // start time with another command line
            ProcessRecords records = new ProcessRecords(fx.state);
            records.write(ProcessRecord.fresh(spec).running(d.pid(), d.startTime() + 1, fx.host.bootId(),
                    command.shimCmdline(), Instant.now().toString(), 0));
            ProcessSupervisor supervisor = fx.supervisor();
            assertEquals("foreign (not signalled)", supervisor.stop("decoy.victim", Instant.now()).how());

            records.write(ProcessRecord.fresh(spec).running(d.pid(), d.startTime(), fx.host.bootId(),
                    command.shimCmdline(), Instant.now().toString(), 0));
            // the recorded copy counts as ended (exit unknown) and waits out its backoff; the next apply after it starts ours
            assertEquals("waiting", String.valueOf(supervisor.apply(spec, Instant.now()).action()));
            ProcessSupervisor.Outcome started = supervisor.apply(spec, Instant.now().plusSeconds(5));
            assertEquals("restarted", String.valueOf(started.action()), "the decoy is not ours: a copy of ours is started in place of the recorded one");
            assertNotEquals(d.pid(), started.pid());
            supervisor.remove("decoy.victim", Instant.now());

            Thread.sleep(300);
            assertTrue(decoy.isAlive(), "the decoy was never signalled");
            assertEquals(d.startTime(), fx.host.inspect(decoy.pid()).orElseThrow().startTime());
        } finally {
            decoy.destroyForcibly().waitFor();
        }
    }

    @Test
    void stopGivesATermHandlingProcessItsTimeAndKillsOneThatIgnoresTerm() throws Exception {
        fx.script("polite", "trap 'echo got TERM; exit 0' TERM\necho up\nwhile :; do sleep 0.1; done");
        fx.script("stubborn", "trap '' TERM\necho up\nwhile :; do sleep 0.1; done");
        ProcessSupervisor supervisor = fx.supervisor();
        ProcessSpec polite = fx.spec("polite.c", "polite", List.of(fx.root.toString()), Map.of(), 5000);
        ProcessSpec stubborn = fx.spec("stubborn.c", "stubborn", List.of(fx.root.toString()), Map.of(), 1000);
        supervisor.apply(polite, Instant.now());
        supervisor.apply(stubborn, Instant.now());
        await("both are up", Duration.ofSeconds(5), () -> supervisor.logs("polite.c").lastLines(1).equals(List.of("up"))
                && supervisor.logs("stubborn.c").lastLines(1).equals(List.of("up")));

        ProcessSupervisor.Stopped p = supervisor.stop("polite.c", Instant.now());
        assertEquals("graceful", p.how());
        assertTrue(p.millis() < 5000, "stopped in " + p.millis() + " ms");
        assertEquals("exit 0", p.exit().describe());
        assertTrue(supervisor.logs("polite.c").lastLines(1).contains("got TERM"));

        ProcessRecord stubbornRecord = fx.record("stubborn.c");
        ProcessSupervisor.Stopped s = supervisor.stop("stubborn.c", Instant.now());
        assertEquals("killed", s.how());
        assertTrue(s.millis() >= 1000 && s.millis() < 4000, "killed after " + s.millis() + " ms");
        assertEquals("signal 9", s.exit().describe());
        assertEquals(0, fx.copies(stubbornRecord.cmdline()));
        assertEquals(List.of(), fx.processesWith(fx.bundle.resolve("bin/stubborn").toString()), "the whole group is gone");

        List<ProcessStatus> status = supervisor.status(Instant.now());
        assertEquals(List.of(mesh.model.ProcessState.EXITED, mesh.model.ProcessState.EXITED), status.stream().map(ProcessStatus::state).toList());
        assertEquals(List.of(), supervisor.reconcile(Instant.now(), module -> false), "a stopped component is not restarted");
    }

    /**
     * A component that leaves workers in its group ({@code worker & wait}): TERM ends the script, so its shim ends,
     * but the worker is no child of the shim and would run on, writing its data dir after the stop (after a take's
     * final copy). A stop, and the stop of a replace, must end the whole group before it counts as done.
     */
    @Test
    void stopAndReplaceEndWhatTheComponentLeftInItsGroup() throws Exception {
        // the worker appends to its data dir; one obeys TERM, the other ignores it and needs KILL
        fx.script("leaver", "( while :; do echo tick >> \"$PWD/ticks\"; sleep 0.05; done ) &\necho up\nwait");
        fx.script("deaf-leaver", "( trap '' TERM; while :; do echo tick >> \"$PWD/ticks\"; sleep 0.05; done ) &\necho up\nwait");
        ProcessSupervisor supervisor = fx.supervisor();
        ProcessSpec leaver = fx.spec("leaver.c", "leaver", List.of(fx.root.toString()), Map.of(), 1000);
        ProcessSpec deaf = fx.spec("deaf.c", "deaf-leaver", List.of(fx.root.toString()), Map.of(), 1000);

        long group = startedWithAWorker(supervisor, leaver);
        ProcessSupervisor.Stopped polite = supervisor.stop("leaver.c", Instant.now());
        assertEquals("graceful", polite.how(), "the script and its worker both end on TERM");
        assertGroupEndedAndWritesStopped(group, Path.of(leaver.dataDir()).resolve("ticks"));

        group = startedWithAWorker(supervisor, deaf);
        ProcessSupervisor.Stopped killed = supervisor.stop("deaf.c", Instant.now());
        assertEquals("killed", killed.how(), "the worker ignores TERM: KILL ends it");
        assertTrue(killed.millis() >= 1000, "the worker had its stop timeout before KILL: " + killed.millis() + " ms");
        assertGroupEndedAndWritesStopped(group, Path.of(deaf.dataDir()).resolve("ticks"));

        group = startedWithAWorker(supervisor, leaver);
        ProcessSpec changed = fx.spec("leaver.c", "leaver", List.of(fx.root.toString(), "changed"), Map.of(), 1000);
        ProcessSupervisor.Outcome replaced = supervisor.apply(changed, Instant.now());
        assertEquals("replaced", String.valueOf(replaced.action()), replaced.detail());
        assertEquals(List.of(), liveMembers(group), "the old copy's worker ended before the new copy started");
    }

    /** Applies the spec and waits until its worker writes; the shim's pid, which is its process group's number. */
    private long startedWithAWorker(ProcessSupervisor supervisor, ProcessSpec spec) throws IOException {
        Path ticks = Path.of(spec.dataDir()).resolve("ticks");
        Files.deleteIfExists(ticks);   // what an earlier copy wrote must not pass for this one's worker
        long shim = supervisor.apply(spec, Instant.now()).pid();
        await(spec.component() + "'s worker writes", Duration.ofSeconds(10), () -> read(ticks).length() > 20);
        assertTrue(liveMembers(shim).size() >= 3, "shim, script and worker run in group " + shim + ": " + liveMembers(shim));
        return shim;
    }

    private void assertGroupEndedAndWritesStopped(long group, Path ticks) throws InterruptedException {
        assertEquals(List.of(), liveMembers(group), "no process of group " + group + " is left once the stop returns");
        int before = read(ticks).length();
        Thread.sleep(500);
        assertEquals(before, read(ticks).length(), "nothing writes " + ticks + " after the stop");
    }

    /** Live (not zombie) processes of process group {@code group}. */
    private List<ProcInfo> liveMembers(long group) {
        return fx.host.pids().stream().map(fx.host::inspect).flatMap(Optional::stream)
                .filter(p -> !p.ended() && p.processGroup() == group).toList();
    }

    @Test
    void aChangedSpecReplacesTheProcessWithItsNewNamesAndKeepsItsData() throws Exception {
        int port = SupervisorFixture.freePort();
        ProcessSpec spec = fx.spec("web.server", "server", List.of(Integer.toString(port), fx.root.toString()), HOSTS, 5000);
        ProcessSupervisor supervisor = fx.supervisor();
        long oldPid = supervisor.apply(spec, Instant.now()).pid();
        await("the server answers", Duration.ofSeconds(10), () -> answers(port));
        Path data = Path.of(spec.dataDir());
        Files.writeString(data.resolve("precious.db"), "rows");
        List<String> oldCmdline = fx.record("web.server").cmdline();

        ProcessSpec moved = fx.spec("web.server", "server", List.of(Integer.toString(port), fx.root.toString()),
                Map.of("db.internal", "10.9.9.9", "api.zurag.be", "10.1.2.4"), 5000);
        ProcessSupervisor.Outcome replaced = supervisor.apply(moved, Instant.now());
        assertEquals("replaced", String.valueOf(replaced.action()));
        assertNotEquals(oldPid, replaced.pid());
        assertTrue(replaced.detail().startsWith("old copy graceful"), replaced.detail());
        await("the new server answers", Duration.ofSeconds(10), () -> answers(port));
        await("the new copy noted its names", Duration.ofSeconds(5), () -> read(data.resolve("db.resolved")).startsWith("10.9.9.9"));
        assertEquals(moved.hostsFile(), Files.readString(data.resolve("hosts.seen")));
        assertEquals("rows", Files.readString(data.resolve("precious.db")), "the data directory survives a replace");
        assertEquals(0, fx.copies(oldCmdline));
        assertEquals(1, fx.copies(fx.record("web.server").cmdline()));
        assertEquals(0, supervisor.status(Instant.now()).get(0).restarts(), "a replace is not a restart");

        supervisor.remove("web.server", Instant.now());
        assertEquals("rows", Files.readString(data.resolve("precious.db")), "the data directory survives a remove");
        assertEquals(List.of(), supervisor.status(Instant.now()));
    }

    @Test
    void aCopyStartedButNeverRecordedIsAdoptedNotStartedTwice() throws Exception {
        int port = SupervisorFixture.freePort();
        ProcessSpec spec = fx.spec("web.server", "server", List.of(Integer.toString(port), fx.root.toString()), HOSTS, 5000);
        ProcessRecords records = new ProcessRecords(fx.state);
        // what an agent that died between the launch and the record would leave: a running shim and no record
        Files.createDirectories(records.runtimeDir("web.server"));
        Files.createDirectories(Path.of(spec.dataDir()));
        Files.writeString(records.hostsFile("web.server"), spec.hostsFile());
        LaunchCommand command = LaunchCommand.of(spec, records.exitFile("web.server"), records.hostsFile("web.server"));
        long orphan = fx.host.launch(command, fx.root.resolve("orphan.log"));
        await("the orphan runs", Duration.ofSeconds(10), () -> answers(port));

        ProcessSupervisor.Outcome outcome = fx.supervisor().apply(spec, Instant.now());
        assertEquals("adopted", String.valueOf(outcome.action()));
        assertEquals(orphan, outcome.pid());
        assertEquals(1, fx.copies(command.shimCmdline()));
        assertEquals("kept", String.valueOf(fx.supervisor().apply(spec, Instant.now()).action()));
    }

    @Test
    void aShimKilledAloneLeavesAChildThatIsEndedBeforeTheNewCopyStarts() throws Exception {
        int port = SupervisorFixture.freePort();
        ProcessSpec spec = fx.spec("web.server", "server", List.of(Integer.toString(port), fx.root.toString()), HOSTS, 3000);
        ProcessSupervisor supervisor = fx.supervisor();
        long shim = supervisor.apply(spec, Instant.now()).pid();
        await("the server answers", Duration.ofSeconds(10), () -> answers(port));
        List<ProcInfo> servers = fx.servers();
        assertEquals(1, servers.size());
        fx.host.signal(shim, "KILL", false); // the shim alone: its child, the server, keeps running in the group
        await("the shim is gone", Duration.ofSeconds(5), () -> fx.host.inspect(shim).map(ProcInfo::ended).orElse(true));
        assertTrue(answers(port), "the orphaned server still runs");

        // the first pass finds the shim gone: it ends the orphaned server and waits out the backoff
        assertEquals("waiting", String.valueOf(supervisor.apply(spec, Instant.now()).action()));
        assertTrue(fx.host.inspect(servers.get(0).pid()).map(p -> p.ended() || p.startTime() != servers.get(0).startTime()).orElse(true),
                "the old server was ended");
        assertEquals(List.of(), fx.servers());
        ProcessSupervisor.Outcome restarted = supervisor.apply(spec, Instant.now().plusSeconds(5));
        assertEquals("restarted", String.valueOf(restarted.action()));
        await("the new server answers", Duration.ofSeconds(10), () -> answers(port));
        assertEquals(1, fx.servers().size(), "exactly one server");
        assertEquals("unknown (no status was written)", supervisor.status(Instant.now()).get(0).lastExit());
    }

    @Test
    void aBadSpecIsRefusedWithItsProblemsAndChangesNothing() {
        ProcessSpec bad = fx.spec("web.server", "server", List.of(), Map.of("db.internal", "nowhere"), 0);
        InvalidInput e = assertThrows(InvalidInput.class, () -> fx.supervisor().apply(bad, Instant.now()));
        assertEquals(List.of("component web.server: address 'nowhere' of db.internal is not an IP address",
                "component web.server: stop timeout must be positive, was 0 ms"), e.problems());
        assertEquals(List.of(), new ProcessRecords(fx.state).components());
        ProcessSpec missing = new ProcessSpec("ghost.c", "testmod", fx.bundle.toString(), "bin/ghost", List.of(), Map.of(),
                fx.root.resolve("data/ghost").toString(), Map.of(), 1000, "sha256:ghost");
        ProcessSupervisor.Outcome failed = fx.supervisor().apply(missing, Instant.now());
        assertEquals("failed", String.valueOf(failed.action()));
        assertTrue(failed.detail().contains("bin/ghost is missing or not executable"), failed.detail());
        ProcessStatus status = fx.supervisor().status(Instant.now()).get(0);
        assertEquals(mesh.model.ProcessState.FAILED, status.state());
        assertEquals("waiting", String.valueOf(fx.supervisor().apply(missing, Instant.now()).action()));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static boolean answers(int port) {
        try {
            get(port);
            return true;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static String get(int port) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/index.html"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("status " + r.statusCode());
            }
            return r.body();
        }
    }
}
