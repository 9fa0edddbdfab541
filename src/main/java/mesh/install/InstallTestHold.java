package mesh.install;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import mesh.model.Poll;

/**
 * InstallTestHold is the installer's test hook, kept apart from the steps' code (the controller's twin is
 * {@code mesh.controller.TakeTestHold}): while the file MESH_INSTALL_TEST_HOLD names holds a point's name, the
 * installer waits at that point (2 minutes at most), so a test can SIGKILL it there, where a kill is otherwise a
 * matter of milliseconds (TempControllerLeftBehindIT: the temporary controller started, its pid not yet recorded).
 * Unset in production, where it does nothing; the installer's children never inherit it (MESH_ variables are cleared).
 */
final class InstallTestHold {

    static final String VARIABLE = "MESH_INSTALL_TEST_HOLD";

    /** The point right after the temporary controller's process started, before its pid is written down. */
    static final String TEMP_CONTROLLER_STARTED = "temp-controller-started";

    private InstallTestHold() {
    }

    /** Waits while the hook's file holds {@code point}; returns at once when the hook is unset. */
    static void at(String point) {
        String hold = System.getenv(VARIABLE);
        if (hold == null || hold.isBlank()) {
            return;
        }
        Path file = Path.of(hold);
        Poll.until(Duration.ofMinutes(2), Duration.ofMillis(100), () -> !read(file).equals(point));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            return "";
        }
    }
}
