package mesh.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A temporary controller that exits before it answers (its store refused, a bad setting) ends the installer's wait at
 * once, with its exit status and the last lines this start wrote to its log (which is kept), instead of at the wait's
 * two minutes as "did not answer". A real child process, a launcher that exits 1.
 */
class TempControllerTest {

    @TempDir
    Path state;

    @Test
    void aControllerThatExitsEndsTheWaitAtOnceNamingItsLog() throws Exception {
        Files.createDirectories(state.resolve("install"));
        // an earlier start's words in the log: the error quotes this start's alone
        Files.writeString(state.resolve("install/temp-controller.log"), TempController.START_MARK + " on 127.0.0.1:1 at then\n"
                + "an earlier start's last words\n");
        Path launcher = state.resolve("mesh");
        Files.writeString(launcher, "#!/bin/sh\nfor i in $(seq 1 30); do echo \"booting $i\"; done\n"
                + "echo 'mesh controller serve: cannot open the store' >&2\nexit 3\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        TempController temp = new TempController(state);
        String url = temp.start(launcher, Map.of());
        SeatApi api = new SeatApi(url, "token", javax.net.ssl.SSLContext.getDefault());

        long began = System.nanoTime();
        InstallFailure failed = assertThrows(InstallFailure.class, () -> temp.awaitAnswer(api, Duration.ofMinutes(2)));
        long waited = (System.nanoTime() - began) / 1_000_000;

        assertTrue(waited < 10_000, "waited " + waited + " ms for a controller that had exited");
        assertTrue(failed.getMessage().contains("exited with status 3 before it answered"), failed.getMessage());
        assertTrue(failed.getMessage().contains("the last 20 lines of its log"), failed.getMessage());
        assertTrue(failed.getMessage().endsWith("\n    booting 30\n    mesh controller serve: cannot open the store"), failed.getMessage());
        assertTrue(failed.getMessage().contains("\n    booting 12\n"), failed.getMessage());
        assertTrue(!failed.getMessage().contains("booting 11\n") && !failed.getMessage().contains("earlier start"), failed.getMessage());
        assertTrue(failed.getMessage().contains(state.resolve("install/temp-controller.log").toString()), failed.getMessage());
        String kept = Files.readString(temp.log());
        assertTrue(kept.contains("an earlier start's last words") && kept.contains("booting 1\n") && kept.contains("cannot open the store"),
                "every start's output is kept in its log: " + kept);
    }

    /**
     * An installer killed after it started its temporary controller and before it wrote the pid down leaves one that no
     * record names: stop ends it all the same (SIGTERM), by what it runs, and leaves another install's alone.
     */
    @Test
    void stopEndsATemporaryControllerNoRecordNamesAndNoOtherInstallsOne(@TempDir Path other) throws Exception {
        Process mine = fakeController(state);
        Process theirs = fakeController(other);
        try {
            Files.createDirectories(state.resolve("install"));
            Files.writeString(state.resolve("install/temp-controller.pid"), "999999999\n");   // an earlier record, long gone

            List<Long> ended = new TempController(state).stop();

            assertEquals(List.of(mine.pid()), ended);
            assertTrue(mine.waitFor(5, TimeUnit.SECONDS), "the unrecorded temporary controller was ended");
            assertEquals(143, mine.exitValue(), "ended by SIGTERM");
            assertTrue(theirs.isAlive(), "another install's temporary controller runs on");
            assertEquals(List.of(), new TempController(state).stop(), "nothing left to end");
        } finally {
            mine.destroyForcibly();
            theirs.destroyForcibly();
        }
    }

    /** A stand-in for {@code STATE/app/bin/mesh controller serve} that runs until SIGTERM (its shell ends its sleep). */
    private static Process fakeController(Path stateDir) throws Exception {
        Path launcher = stateDir.resolve("app/bin/mesh");
        Files.createDirectories(launcher.getParent());
        Files.writeString(launcher, "#!/bin/sh\ntrap 'kill $child; exit 143' TERM\nsleep 120 & child=$!\nwait $child\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        Process p = new ProcessBuilder(launcher.toString(), "controller", "serve").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        // until the shell runs the script (its arguments then name the launcher)
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end && !p.info().arguments().map(a -> List.of(a).contains("serve")).orElse(false)) {
            Thread.sleep(20);
        }
        return p;
    }
}
