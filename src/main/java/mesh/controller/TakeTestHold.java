package mesh.controller;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import mesh.model.Poll;
import mesh.model.TakeStep;

/**
 * TakeTestHold is the controller's test hook for takes, kept apart from the take's code (the agent's twin is
 * {@code mesh.host.take.TakeTestHold}): while the file MESH_TAKE_TEST_HOLD names holds a step's name
 * ({@code verify}), a take waits before that step (2 minutes at most), so a test can change a byte of the copy,
 * or kill a process, at a known point (TakeIT, TakeProcessIT). MESH_TAKE_TEST_DEADLINE ({@code switch=30s}) gives a
 * take's step a shorter deadline than its plan's, so a test can outlive it in seconds, not minutes. Both unset in
 * production, where they do nothing.
 * Why an environment variable and not a seam a test plugs in: the tests run the installed program in processes
 * of its own (docs/testbed.md), so nothing of a test's can be injected into it; the variable is that seam.
 */
final class TakeTestHold {

    static final String VARIABLE = "MESH_TAKE_TEST_HOLD";
    static final String DEADLINE = "MESH_TAKE_TEST_DEADLINE";

    private TakeTestHold() {
    }

    /** Waits while the hook's file holds {@code step}'s name; returns at once when the hook is unset. */
    static void before(TakeStep step) {
        String hold = System.getenv(VARIABLE);
        if (hold == null || hold.isBlank()) {
            return;
        }
        Path file = Path.of(hold);
        Poll.until(Duration.ofMinutes(2), Duration.ofMillis(200), () -> !read(file).equals(step.word()));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * {@code planned}, or the deadline MESH_TAKE_TEST_DEADLINE gives {@code step} ({@code STEP=Ns}); anything else in it
     * is ignored, as the hook is unset in production.
     */
    static Duration deadline(TakeStep step, Duration planned) {
        String given = System.getenv(DEADLINE);
        if (given == null) {
            return planned;
        }
        String[] parts = given.strip().split("=");
        return parts.length == 2 && parts[0].equals(step.word()) && parts[1].matches("[0-9]{1,4}s")
                ? Duration.ofSeconds(Long.parseLong(parts[1].substring(0, parts[1].length() - 1))) : planned;
    }
}
