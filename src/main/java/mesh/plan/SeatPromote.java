package mesh.plan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * SeatPromote is {@code mesh seat promote NODE} decided purely (docs/seat.md, "A fenced promote"): run as root on the
 * standby when the seat is lost, its steps in order, each recorded in a local file when done so that a promote cut
 * short resumes at the first step not done (the seat is dead: no controller can run it). The steps:
 * <ol>
 * <li>{@link Step#CHECK}: this machine is the standby named, it holds the seat's keys ({@link SeatKeys#NEEDED});</li>
 * <li>{@link Step#STORE}: {@code pg_promote()} on its store, and {@code synchronous_standby_names} reset there (the new
 *     seat has no standby yet: its commits must not wait for one);</li>
 * <li>{@link Step#CERTIFICATE}: the controller's certificate for this node, issued with the mesh CA's key it holds;</li>
 * <li>{@link Step#CONTROLLER}: its controller started at the next epoch ({@link #epoch}), named seat NODE;</li>
 * <li>{@link Step#AGENTS}: one status look through it, by which every agent it reaches records the new epoch and
 *     refuses the deposed seat from then on;</li>
 * <li>{@link Step#CONFIG}: the operator's config lists the new seat first, the old one after ({@link #controllers}).</li>
 * </ol>
 */
public final class SeatPromote {

    /** The steps, in the order they run. */
    public enum Step {
        CHECK, STORE, CERTIFICATE, CONTROLLER, AGENTS, CONFIG;

        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private SeatPromote() {
    }

    /**
     * The first step not done yet, or empty when every step after CHECK is done. CHECK is never kept as done in the
     * file: a resumed promote checks the machine again first ({@code done} holds it only within one run).
     */
    public static Optional<Step> next(Set<Step> done) {
        List<Step> work = List.of(Step.values()).subList(1, Step.values().length);
        if (done.containsAll(work)) {
            return Optional.empty();
        }
        if (!done.contains(Step.CHECK)) {
            return Optional.of(Step.CHECK);
        }
        return work.stream().filter(s -> !done.contains(s)).findFirst();
    }

    /**
     * The promoted controller's epoch: above the newest the store recorded (the deposed seat's; the store came over
     * with every row the seat committed to the standby) and above any this promote already chose, a millisecond
     * timestamp as {@code mesh install}'s.
     */
    public static long epoch(long storeEpoch, long chosenBefore, long nowMillis) {
        if (chosenBefore > storeEpoch) {
            return chosenBefore;   // a resumed promote keeps its epoch: the agents may have recorded it already
        }
        return Math.max(nowMillis, storeEpoch + 1);
    }

    /** What is wrong with this machine as the standby to promote; empty when it may go on. */
    public static List<String> problems(String named, String joinedAs, Set<String> keysPresent) {
        List<String> problems = new ArrayList<>();
        if (joinedAs == null) {
            problems.add("this machine is not a node of a mesh (no joined state): run 'mesh seat promote' on the standby");
        } else if (!joinedAs.equals(named)) {
            problems.add("this machine is node " + joinedAs + ", not " + named + ": run 'mesh seat promote " + named + "' on " + named);
        }
        SeatKeys.NEEDED.stream().filter(k -> !keysPresent.contains(k))
                .forEach(k -> problems.add("the seat's key " + k + " is not here: this node is not a standby ('mesh seat add " + named + "')"));
        return problems;
    }

    /**
     * The operator's {@code MESH_CONTROLLER} after the promote: the new seat's URL first (the CLI asks in order and the
     * first that answers as seat wins), then every one it listed before, once each.
     */
    public static String controllers(String newSeat, String before) {
        Set<String> urls = new LinkedHashSet<>();
        urls.add(newSeat);
        if (before != null) {
            for (String u : before.split(",")) {
                if (!u.isBlank()) {
                    urls.add(u.strip());
                }
            }
        }
        return String.join(",", urls);
    }

    /** The operator's {@code MESH_CONTROLLER} once {@code standby} is added: every seat it listed, then the standby's, once. */
    public static String withStandby(String before, String standby) {
        Set<String> urls = new LinkedHashSet<>();
        if (before != null) {
            for (String u : before.split(",")) {
                if (!u.isBlank()) {
                    urls.add(u.strip());
                }
            }
        }
        urls.add(standby);
        return String.join(",", urls);
    }

    /**
     * What a promote may lose, in words, from what the standby's store knows before it is promoted: when it last heard
     * from the seat ({@code heard}, its WAL receiver; null: none connected now, as when the seat is dead), the commit time of the last change it
     * replayed ({@code replayed}; null: none), and since when the seat had recorded it out of sync ({@code outOfSync}, a
     * row that reached it; null: none did). Nothing the seat acknowledged is missing while the standby was synchronous;
     * a seat that ran on cut off from it stopped waiting for it {@link StandbySync#DEADLINE} later.
     */
    public static String lossWords(Instant heard, Instant replayed, Instant outOfSync) {
        String last = "the last change replayed here was committed on the seat at " + (replayed == null ? "(none)" : replayed);
        if (outOfSync != null) {
            return "the seat had recorded this standby out of sync since " + outOfSync + ": what it committed after "
                    + outOfSync.plus(StandbySync.DEADLINE) + " (when it stopped waiting for this standby) may be missing here; "
                    + last;
        }
        return "no mark from the seat that this standby was out of sync reached it (last heard from the seat: "
                + (heard == null ? "not connected now" : heard) + "): nothing the seat acknowledged is missing here, unless the"
                + " seat ran on, cut off from this standby, for more than " + StandbySync.DEADLINE.toSeconds() + " s; " + last;
    }
}
