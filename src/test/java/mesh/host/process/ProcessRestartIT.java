package mesh.host.process;

import static mesh.host.process.SupervisorFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ProcessRestartIT: a process that keeps exiting 1 is restarted after growing delays (the ones the backoff chose,
 * reported with each restart, and none shorter on the clock), its last exit and restart count reported; a chatty
 * process's log rotates at the size limit and reads back its last lines.
 * The test plays the agent's loop: {@link ProcessSupervisor#reconcile} every 20 ms.
 */
class ProcessRestartIT {

    SupervisorFixture fx;

    @BeforeEach
    void setUp() throws IOException {
        fx = new SupervisorFixture();
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
    }

    @Test
    void aProcessThatExitsOneIsRestartedWithGrowingDelays() throws Exception {
        fx.script("crasher", "echo \"run at $(date +%s.%N)\"\nexit 1");
        ProcessSupervisor supervisor = fx.supervisor(); // backoff 200 ms doubling up to 1600 ms
        ProcessSpec spec = fx.spec("crash.c", "crasher", List.of(fx.root.toString()), Map.of(), 1000);
        List<Instant> starts = new ArrayList<>();
        List<Long> chosen = new ArrayList<>();
        ProcessSupervisor.Outcome first = supervisor.apply(spec, Instant.now());
        assertEquals(ProcessSupervisor.Action.STARTED, first.action());
        starts.add(Instant.now());
        long deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
        while (starts.size() < 6 && System.nanoTime() < deadline) {
            for (ProcessSupervisor.Outcome o : supervisor.reconcile(Instant.now(), module -> false)) {
                if (o.action() == ProcessSupervisor.Action.RESTARTED) {
                    starts.add(Instant.now());
                    chosen.add(o.backoff().toMillis());
                }
            }
            Thread.sleep(20);
        }
        assertEquals(6, starts.size(), "starts: " + starts);
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < starts.size(); i++) {
            gaps.add(Duration.between(starts.get(i - 1), starts.get(i)).toMillis());
        }
        // the clock can show only that no restart came before its backoff: how much later it came is the machine's
        // load (gaps of 2.1 s for a 1.6 s backoff beside other work here); what the code chose is asserted below
        long[] delays = {200, 400, 800, 1600, 1600};
        for (int i = 0; i < gaps.size(); i++) {
            assertTrue(gaps.get(i) >= delays[i] - 30, "gap " + i + " of " + gaps + " is below the backoff " + delays[i]);
        }
        assertEquals(List.of(200L, 400L, 800L, 1600L, 1600L), chosen, "the delays the backoff chose grow to its cap");

        await("the last run ended", Duration.ofSeconds(5), () -> supervisor.status(Instant.now()).get(0).state() == mesh.model.ProcessState.RESTARTING);
        ProcessStatus status = supervisor.status(Instant.now()).get(0);
        assertEquals("exit 1", status.lastExit());
        assertEquals(5, status.restarts());
        assertEquals(0, status.pid());
        assertTrue(Instant.parse(status.nextStartAt()).isAfter(Instant.parse(status.lastExitAt())));
        assertEquals(6, supervisor.logs("crash.c").lastLines(100).stream().filter(l -> l.startsWith("run at ")).count());
        System.out.println("restart gaps (ms): " + gaps);
    }

    @Test
    void theLogRotatesAtItsLimitAndTheReaderReturnsTheLastLines() throws Exception {
        // 40 batches of 50 numbered lines (~500 bytes each), then "done" and a flag file; then it idles
        fx.script("chatty", String.join("\n",
                "i=0",
                "while [ $i -lt 2000 ]; do",
                "  echo \"line $i\"; i=$((i+1))",
                "  [ $((i % 50)) -eq 0 ] && sleep 0.05",
                "done",
                "echo done",
                "touch ./written",
                "exec sleep 300"));
        ProcessSupervisor supervisor = fx.supervisor(); // logs: 3 files of 4096 bytes
        ProcessSpec spec = fx.spec("chatty.c", "chatty", List.of(fx.root.toString()), Map.of(), 1000);
        supervisor.apply(spec, Instant.now());
        Path written = Path.of(spec.dataDir()).resolve("written");
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int maxFiles = 0;
        while (!Files.exists(written) && System.nanoTime() < deadline) {
            supervisor.reconcile(Instant.now(), module -> false);
            maxFiles = Math.max(maxFiles, supervisor.logs("chatty.c").files().size());
            Thread.sleep(20);
        }
        assertTrue(Files.exists(written), "the chatty process finished writing");
        supervisor.reconcile(Instant.now(), module -> false);
        LogFiles log = supervisor.logs("chatty.c");
        assertEquals(3, log.files().size(), "rotated at least twice, never more than three files: " + log.files());
        assertEquals(3, maxFiles);
        for (Path f : log.files()) {
            assertTrue(Files.size(f) <= 4096 + 2048, f + " holds " + Files.size(f) + " bytes");
        }
        assertEquals(List.of("line 1997", "line 1998", "line 1999", "done"), log.lastLines(4));
        assertEquals(mesh.model.ProcessState.RUNNING, supervisor.status(Instant.now()).get(0).state());
    }
}
