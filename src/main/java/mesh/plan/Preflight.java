package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import mesh.model.DeclarationCheck;

/**
 * Preflight judges, purely, the facts {@link MachineFacts} gathered about this machine: a reachable
 * engine that speaks API 1.41 or newer, free ports on the address, a writable state dir, and an
 * address that is an IPv4 address of this machine. Every problem is named; a failed preflight
 * changes nothing.
 */
public final class Preflight {

    /** The ports a seat needs free on its address: controller, agent, artifact store, store. */
    public static final List<Integer> SEAT_PORTS = List.of(7700, 7701, 5000, 5432);
    /** The port a joining node needs free: its agent's. */
    public static final List<Integer> JOIN_PORTS = List.of(7701);

    /**
     * Facts is what was found: the engine's API version (null if it did not answer, with why), the
     * ports already in use, whether the state dir is writable (and why not), the address and this
     * machine's IPv4 addresses.
     */
    public record Facts(String engine, String engineApi, String engineError, List<Integer> busyPorts,
                        String stateDir, String stateDirError, String address, List<String> machineAddresses) {
    }

    private Preflight() {
    }

    public static List<String> problems(Facts f) {
        List<String> problems = new ArrayList<>();
        if (f.engineApi() == null) {
            problems.add("the Docker engine at " + f.engine() + " does not answer"
                    + (f.engineError() == null ? "" : ": " + f.engineError()) + " (start it, or name another with --engine)");
        } else if (!atLeast(f.engineApi(), 1, 41)) {
            problems.add("the Docker engine at " + f.engine() + " speaks API " + f.engineApi() + "; mesh needs 1.41 or newer");
        }
        if (f.address() == null || !DeclarationCheck.isIpv4(f.address())) {
            problems.add("address: an IPv4 address of this machine (--address), got '" + f.address() + "'");
        } else if (!f.machineAddresses().contains(f.address())) {
            problems.add("address " + f.address() + " is not an address of this machine (it has "
                    + (f.machineAddresses().isEmpty() ? "none" : String.join(", ", f.machineAddresses())) + ")");
        }
        for (int port : f.busyPorts()) {
            problems.add("port " + port + " on " + f.address() + " is in use: mesh needs it free");
        }
        if (f.stateDirError() != null) {
            problems.add("the state dir " + f.stateDir() + " is not writable: " + f.stateDirError());
        }
        return List.copyOf(problems);
    }

    /** Whether a Docker API version "MAJOR.MINOR" is at least the one given; an unreadable one is not. */
    static boolean atLeast(String version, int major, int minor) {
        String[] parts = version.strip().split("\\.");
        try {
            int ma = Integer.parseInt(parts[0]);
            int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return ma > major || (ma == major && mi >= minor);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
