package mesh.install;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A temporary controller that exits before it answers (its store refused, a bad setting) ends the installer's wait at
 * once, naming its log, instead of at the wait's two minutes as "did not answer". A real child process, a launcher that
 * exits 1.
 */
class TempControllerTest {

    @TempDir
    Path state;

    @Test
    void aControllerThatExitsEndsTheWaitAtOnceNamingItsLog() throws Exception {
        Files.createDirectories(state.resolve("install"));
        Path launcher = state.resolve("mesh");
        Files.writeString(launcher, "#!/bin/sh\necho 'mesh controller serve: cannot open the store' >&2\nexit 1\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        TempController temp = new TempController(state);
        String url = temp.start(launcher, Map.of());
        SeatApi api = new SeatApi(url, "token", javax.net.ssl.SSLContext.getDefault());

        long began = System.nanoTime();
        InstallFailure failed = assertThrows(InstallFailure.class, () -> temp.awaitAnswer(api, Duration.ofMinutes(2)));
        long waited = (System.nanoTime() - began) / 1_000_000;

        assertTrue(waited < 10_000, "waited " + waited + " ms for a controller that had exited");
        assertTrue(failed.getMessage().contains("exited before it answered"), failed.getMessage());
        assertTrue(failed.getMessage().contains(state.resolve("install/temp-controller.log").toString()), failed.getMessage());
        assertTrue(Files.readString(temp.log()).contains("cannot open the store"), "its output is in its log");
    }
}
