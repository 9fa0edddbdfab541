package mesh.host.process;

import static mesh.host.process.SupervisorFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mesh.model.DeclarationJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SupervisorCrashIT runs the supervisor in a JVM of its own ({@link SupervisorMain}), SIGKILLs that JVM, and
 * starts another one over the same state dir, twice: the supervised server outlives each JVM and is
 * adopted, never started a second time.
 */
class SupervisorCrashIT {

    SupervisorFixture fx;
    final List<Process> jvms = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        fx = new SupervisorFixture();
        fx.script("server", "echo \"serving on $1\"\nexec /bin/busybox httpd -f -p 127.0.0.1:$1 -h \"$PWD\"");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Process jvm : jvms) {
            jvm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        fx.close();
    }

    @Test
    void theProcessSurvivesTheSupervisorsSigkillAndIsAdoptedNotDuplicated() throws Exception {
        int port = SupervisorFixture.freePort();
        ProcessSpec spec = fx.spec("ctl.server", "server", List.of(Integer.toString(port)), Map.of("db.internal", "10.1.2.3"), 3000);
        Path specFile = fx.root.resolve("spec.json");
        Files.writeString(specFile, DeclarationJson.MAPPER.writeValueAsString(spec));

        Process first = startSupervisorJvm(specFile);
        String[] applied = firstLine(first).split(" ");
        assertEquals("started", applied[1]);
        long pid = Long.parseLong(applied[2]);
        await("the server listens on " + port, Duration.ofSeconds(10), () -> listens(port));
        ProcessRecord record = fx.record("ctl.server");
        assertEquals(pid, record.pid());

        first.destroyForcibly(); // SIGKILL
        assertTrue(first.waitFor(10, TimeUnit.SECONDS));
        assertEquals(137, first.exitValue(), "the supervisor's JVM was killed by SIGKILL");
        Thread.sleep(500);
        ProcInfo shim = fx.host.inspect(pid).orElseThrow(() -> new AssertionError("the shim died with the JVM"));
        assertFalse(shim.ended());
        assertEquals(record.startTime(), shim.startTime());
        assertTrue(listens(port), "the server outlived the supervisor");

        for (int round = 0; round < 2; round++) {
            Process next = startSupervisorJvm(specFile);
            assertEquals("applied kept " + pid, firstLine(next), "round " + round);
            Thread.sleep(500); // a few reconcile passes
            assertEquals(1, fx.copies(record.cmdline()), "exactly one shim in /proc");
            assertEquals(1, fx.servers().size(), "exactly one server in /proc");
            next.destroyForcibly();
            assertTrue(next.waitFor(10, TimeUnit.SECONDS));
        }

        ProcessSupervisor.Outcome adopted = fx.supervisor().apply(spec, Instant.now());
        assertEquals(ProcessSupervisor.Action.KEPT, adopted.action());
        assertEquals(pid, adopted.pid());
        assertEquals(0, fx.supervisor().status(Instant.now()).get(0).restarts());
        ProcessSupervisor.Stopped stopped = fx.supervisor().remove("ctl.server", Instant.now());
        assertEquals("graceful", stopped.how(), "the adopted shim forwards TERM to the server");
        assertFalse(listens(port));
    }

    @Test
    void anExitWhileNoSupervisorRunsIsReportedByTheNextOne() throws Exception {
        fx.script("quitter", "echo up\nwhile [ ! -f ./quit ]; do sleep 0.05; done\necho quitting\nexit 3");
        ProcessSpec spec = fx.spec("quit.c", "quitter", List.of(fx.root.toString()), Map.of(), 3000);
        Path specFile = fx.root.resolve("spec.json");
        Files.writeString(specFile, DeclarationJson.MAPPER.writeValueAsString(spec));
        Process jvm = startSupervisorJvm(specFile);
        long pid = Long.parseLong(firstLine(jvm).split(" ")[2]);
        ProcessRecord record = fx.record("quit.c");
        jvm.destroyForcibly();
        assertTrue(jvm.waitFor(10, TimeUnit.SECONDS));

        Files.writeString(Path.of(spec.dataDir()).resolve("quit"), "");
        await("the orphaned shim ended", Duration.ofSeconds(10),
                () -> Identity.judge(record, fx.host.inspect(pid), fx.host.bootId()) == Identity.Verdict.GONE);

        ProcessSupervisor next = fx.supervisor();
        ProcessStatus status = next.status(Instant.now()).get(0);
        assertEquals(mesh.model.ProcessState.RESTARTING, status.state());
        assertEquals("exit 3", status.lastExit(), "the shim wrote the exit status the JVM could not wait for");
        ProcessSupervisor.Outcome restarted = next.apply(spec, Instant.now().plusSeconds(1));
        assertEquals(ProcessSupervisor.Action.RESTARTED, restarted.action());
        assertEquals(1, next.status(Instant.now()).get(0).restarts());
    }

    private Process startSupervisorJvm(Path specFile) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SupervisorMain.class.getName(),
                fx.state.toString(), specFile.toString())
                .redirectError(fx.root.resolve("supervisor-" + jvms.size() + ".err").toFile())
                .start();
        jvms.add(p);
        return p;
    }

    private String firstLine(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null) {
            throw new AssertionError("the supervisor JVM printed nothing; stderr:\n"
                    + Files.readString(fx.root.resolve("supervisor-" + (jvms.size() - 1) + ".err")));
        }
        return line;
    }

    private static boolean listens(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
