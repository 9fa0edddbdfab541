package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SeatChoice is how the CLI finds the seat when the operator's config names several controllers
 * ({@code MESH_CONTROLLER=https://ace:7700,https://n2:7700}, docs/seat.md): asked in that order, the first that
 * answers and was not deposed by a promote is the seat; nothing else is edited after a promote. A controller that
 * answers with any other refusal (a wrong token) is still the one the verb talks to, so the verb says that refusal.
 */
public final class SeatChoice {

    private SeatChoice() {
    }

    /** What one controller answered when asked. */
    public enum Answer { ANSWERS, DEPOSED, UNREACHABLE }

    /** One controller asked: its URL, its answer, and the words of a failure (null when it answered). */
    public record Asked(String url, Answer answer, String why) {
    }

    /** The URLs of a {@code MESH_CONTROLLER} that names one or several, comma-separated, blanks ignored. */
    public static List<String> urls(String given) {
        List<String> urls = new ArrayList<>();
        for (String part : given.split(",", -1)) {
            if (!part.isBlank()) {
                urls.add(part.strip());
            }
        }
        return urls.isEmpty() ? List.of(given) : urls;
    }

    /** The seat among {@code asked} (in the order asked), or empty when none answers as seat. */
    public static Optional<String> seat(List<Asked> asked) {
        return asked.stream().filter(a -> a.answer() == Answer.ANSWERS).map(Asked::url).findFirst();
    }

    /**
     * Why no seat was found: each controller and what it said, and, when one could not be reached, what brings the
     * mesh back if that was the seat's machine lost for good (a promote is the operator's decision, never ours).
     */
    public static String noSeat(List<Asked> asked) {
        StringBuilder b = new StringBuilder("no controller of MESH_CONTROLLER answers as the seat:");
        asked.forEach(a -> b.append("\n  ").append(a.url()).append(": ").append(a.why()));
        if (asked.stream().anyMatch(a -> a.answer() == Answer.UNREACHABLE)) {
            b.append("\nif the seat's machine is lost for good, promote its standby: as root on the standby's node,"
                    + " `mesh seat promote NODE` (NODE: that node's name; docs/seat.md says when and how)");
        }
        return b.toString();
    }
}
