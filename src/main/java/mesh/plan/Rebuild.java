package mesh.plan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuild is what {@code mesh install --from-backup} decides purely, before and while it raises a seat from a state
 * backup (docs/rebuild.md): where the backup is read from ({@link #source}), which options it refuses
 * ({@link #problems}), which name the rebuilt seat takes ({@link #seatName}), and how the store it loaded adopts the
 * fleet ({@link #adopt}): what was under way when the backup was made failed with a reason, the modules that ran on the
 * old seat listed as lost and placed nowhere, so that nothing starts them afresh with empty volumes.
 */
public final class Rebuild {

    /** The common name's start of a mesh CA's certificate: {@code mesh CA SEAT} (MeshCa), the seat it was made on. */
    public static final String CA_NAME = "mesh CA ";

    private Rebuild() {
    }

    /**
     * Source is where a state backup is read: a file, or a registry's {@code mesh-state:TAG}.
     *
     * @param registry the registry's address ({@code HOST:PORT}, or with {@code http://}), null for a file
     */
    public record Source(String file, String registry, String tag) {

        public boolean inRegistry() {
            return registry != null;
        }

        public String words() {
            return inRegistry() ? registry + "/mesh-state:" + tag : file;
        }
    }

    /**
     * The source {@code from} names: a registry reference {@code HOST:PORT/mesh-state:TAG} (as {@code mesh seat backup
     * --to-node} printed it, its leading {@code node:NAME } too), or else a file.
     */
    public static Source source(String from) {
        String s = from.strip();
        if (s.startsWith("node:") && s.indexOf(' ') > 0) {
            s = s.substring(s.indexOf(' ') + 1).strip();
        }
        int at = s.lastIndexOf("/mesh-state:");
        if (at > 0 && !s.startsWith("/") && !s.startsWith(".")) {
            String registry = s.substring(0, at);
            String tag = s.substring(at + "/mesh-state:".length());
            if (!tag.isEmpty() && !tag.contains("/") && !registry.isEmpty()) {
                return new Source(null, registry.contains("://") ? registry : "http://" + registry, tag);
            }
        }
        return new Source(from, null, null);
    }

    /** What keeps {@code mesh install --from-backup} from the other options given; empty when none. */
    public static List<String> problems(boolean join, boolean token, boolean caHash, boolean storeUrl) {
        List<String> problems = new ArrayList<>();
        if (join || token || caHash) {
            problems.add("--from-backup raises a seat: it takes no --join, --token or --ca-hash (a node joins with those)");
        }
        if (storeUrl) {
            problems.add("--from-backup with --store-url: not built yet; the rebuilt seat raises its own store (mesh-store)");
        }
        return problems;
    }

    /**
     * The name the rebuilt seat takes: the old seat's, as its CA names it ({@code CN=mesh CA SEAT}), since the store's
     * rows place the mesh's own modules on it; {@code given} ({@code --node}) must be that name or absent.
     * Throws {@link IllegalArgumentException} naming the conflict.
     */
    public static String seatName(String caCommonName, String given) {
        String seat = caCommonName != null && caCommonName.startsWith(CA_NAME) ? caCommonName.substring(CA_NAME.length()).strip() : "";
        if (seat.isEmpty()) {
            if (given == null) {
                throw new IllegalArgumentException("the state backup's CA (" + caCommonName + ") names no seat: give --node, the"
                        + " name of the seat it was made on");
            }
            return given;
        }
        if (given != null && !given.equals(seat)) {
            throw new IllegalArgumentException("--node " + given + ": the rebuilt seat keeps the name of the seat the backup was"
                    + " made on, " + seat + " (the store places the mesh's own modules on it); leave --node out");
        }
        return seat;
    }

    /** Placement is one module's row: where it is meant to run and where it runs with its data (either may be null). */
    public record Placement(String module, String assigned, String taken) {
    }

    /** Operation is a take, backup or restore the store records as running: {@code kind} names the table's row. */
    public record Operation(Kind kind, long id, String module) {
    }

    public enum Kind { TAKE, BACKUP, RESTORE }

    /** Failed is an operation to mark failed, with why. */
    public record Failed(Operation operation, String reason) {
    }

    /**
     * Adoption is what the rebuilt store changes before any controller reads it.
     *
     * @param lost the modules that ran (or were to run) on the old seat, not the mesh's own: placed nowhere now
     */
    public record Adoption(List<Failed> failed, List<String> lost) {

        public boolean empty() {
            return failed.isEmpty() && lost.isEmpty();
        }
    }

    /**
     * How the store loaded from a backup made at {@code made} adopts the fleet: every take, backup and restore it
     * records as running is failed (its steps ran against a controller that is gone; what happened after the backup is
     * not known), and every module placed on {@code seat} but the mesh's own ({@code ownModules}) is lost: its volumes
     * were on the dead machine, and {@code mesh restore} brings it back from its own backups.
     */
    public static Adoption adopt(String seat, List<String> ownModules, List<Placement> placements, List<Operation> running,
                                 Instant made) {
        String why = "the seat was rebuilt from its state backup of " + made + ", when this was under way; what it did after"
                + " is not known";
        List<Failed> failed = running.stream().map(o -> new Failed(o, why + reason(o.kind()))).toList();
        List<String> lost = placements.stream()
                .filter(p -> !ownModules.contains(p.module()))
                .filter(p -> seat.equals(p.taken()) || (p.taken() == null && seat.equals(p.assigned())))
                .map(Placement::module).sorted().toList();
        return new Adoption(failed, lost);
    }

    private static String reason(Kind kind) {
        return switch (kind) {
            case TAKE -> ": the module runs where 'mesh status' shows it; take it again";
            case BACKUP -> ": back it up again";
            case RESTORE -> ": restore it again";
        };
    }

    /** The lines that tell the operator what the rebuild adopted: the operations failed, the modules lost. */
    public static List<String> lines(Adoption a, String seat) {
        List<String> lines = new ArrayList<>();
        for (Failed f : a.failed()) {
            lines.add("      " + f.operation().kind().name().toLowerCase(java.util.Locale.ROOT) + " of " + f.operation().module()
                    + " (" + f.operation().id() + ") marked failed: it was under way at the backup");
        }
        for (String m : a.lost()) {
            lines.add("      lost: " + m + " ran on the old seat " + seat + "; restore it from its own backups: mesh restore " + m
                    + " --to NODE");
        }
        return lines;
    }
}
