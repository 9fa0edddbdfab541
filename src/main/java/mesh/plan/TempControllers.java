package mesh.plan;

import java.util.List;

/**
 * TempControllers tells which running processes are the temporary controllers of one install: {@code controller
 * serve} run from that install's own app folder ({@code STATE/app}: its launcher {@code bin/mesh}, the JVM it execs
 * with {@code -jar STATE/app/quarkus-run.jar}, or the native {@code bin/mesh-native}). The installer ends them all
 * before it starts one and at the pivot, by what they run rather than by the pid it wrote down: an installer killed
 * between starting its temporary controller and writing the pid leaves one that no record names, which went on
 * serving beside the next run's (docs/design.md, "The controller is a process"). The permanent controller runs from
 * the agent's unpacked bundle, never from the app folder, so it is never one. Pure, so the rule is tested without
 * processes.
 */
public final class TempControllers {

    /** Seen is a process as the system shows it: its pid, its executable and its arguments. */
    public record Seen(long pid, String command, List<String> arguments) {
    }

    private TempControllers() {
    }

    /** The pids of the processes of {@code seen} that are temporary controllers run from the app folder {@code app}. */
    public static List<Long> of(List<Seen> seen, String app) {
        String under = app.endsWith("/") ? app : app + "/";
        return seen.stream().filter(s -> servesController(s.arguments()) && (s.command().startsWith(under)
                || s.arguments().stream().anyMatch(a -> a.startsWith(under)))).map(Seen::pid).toList();
    }

    /** Whether the arguments hold {@code controller serve}, the two words next to each other. */
    static boolean servesController(List<String> arguments) {
        for (int i = 0; i + 1 < arguments.size(); i++) {
            if (arguments.get(i).equals("controller") && arguments.get(i + 1).equals("serve")) {
                return true;
            }
        }
        return false;
    }
}
