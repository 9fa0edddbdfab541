package mesh.host.take;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import mesh.model.Poll;

/**
 * TakeTestHold is the agent's test hook for interrupted takes, the agent-side twin of the controller's
 * MESH_TAKE_TEST_HOLD: while the file MESH_HOST_TAKE_TEST_HOLD names holds {@code copy}, an archive read under
 * a fence pauses after its first 64 KiB, or before its end when it is shorter (a delta), so a copy is cut in the
 * middle when a test kills an agent; {@code pre-copy} does the same to an archive read while the module runs (a
 * pre-copy pass); while it holds {@code verify}, a manifest pauses before it scans (so a verify is cut in the
 * middle), and {@code warm} the manifests made before a pre-copied take's fence. Two minutes at most. Unset in
 * production, where it does nothing.
 */
final class TakeTestHold {

    static final String VARIABLE = "MESH_HOST_TAKE_TEST_HOLD";

    private TakeTestHold() {
    }

    /** Whether the hook is set at all (it never is in production). */
    static boolean set() {
        String hold = System.getenv(VARIABLE);
        return hold != null && !hold.isBlank();
    }

    /** Waits while the hook's file holds {@code word}; returns at once when the hook is unset. */
    static void at(String word) {
        String hold = System.getenv(VARIABLE);
        if (hold == null || hold.isBlank()) {
            return;
        }
        Path file = Path.of(hold);
        try {
            Poll.until(Duration.ofMinutes(2), Duration.ofMillis(200), () -> !word.equals(read(file)));
        } catch (java.util.concurrent.CancellationException interrupted) {
            // the thread stays interrupted; its caller sees to it
        }
    }

    /**
     * How much of an archive goes through before {@code copy} pauses it: several whole tar records (10 KiB
     * each), so the target's tar, which extracts a record only once it has all of it, has written part of the
     * first file. A pause after the first write alone let a short pipe read (4 KiB) through, which the target
     * could not extract: nothing landed, and a test waiting for the copy to be midway waited in vain.
     * {@link ArchivePublisher} sends these bytes as its first chunk, then pauses.
     */
    static final int MIDWAY = 64 * 1024;

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            return "";
        }
    }
}
