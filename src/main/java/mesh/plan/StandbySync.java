package mesh.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * StandbySync is the rule that keeps the seat working while its standby is away (docs/seat.md, "While the standby
 * is away"): a standby that streams and has replayed everything is made synchronous (a commit the controller
 * acknowledges is then on both machines); one that has been out of sync for {@link #DEADLINE} is made asynchronous
 * again, so the seat's commits stop waiting for it and the seat keeps working alone, saying since when. Its input
 * is what the seat's PostgreSQL says ({@code pg_stat_replication}, {@code synchronous_standby_names}); its output is
 * the words for {@code mesh status} and the one change to make, if any, which the controller's edge carries out.
 */
public final class StandbySync {

    /** How long a synchronous standby may be out of sync before the seat commits without it. */
    public static final Duration DEADLINE = Duration.ofSeconds(10);

    private StandbySync() {
    }

    /** One row of {@code pg_stat_replication}: the standby's {@code application_name}, state, sync state, lag in bytes. */
    public record Replica(String name, String state, String syncState, long lagBytes) {
    }

    /** Where the standby stands. */
    public enum State { IN_SYNC, CATCHING_UP, AWAY }

    /** What to change: make the standby synchronous, make it asynchronous, or nothing. */
    public enum Change { NONE, MAKE_SYNCHRONOUS, MAKE_ASYNCHRONOUS }

    /** The verdict: the state, since when it is not in sync (null while it is), the change to make, and the words. */
    public record Verdict(State state, Instant outOfSyncSince, Change change, String words) {
    }

    /**
     * The verdict on {@code standby} from the seat's replication rows; {@code synchronous}: whether the seat's
     * {@code synchronous_standby_names} names it now; {@code outOfSyncSince}: since when it was last found not in
     * sync (null if it was in sync at the last look).
     */
    public static Verdict of(String standby, List<Replica> replicas, boolean synchronous, Instant outOfSyncSince, Instant now) {
        Replica r = replicas.stream().filter(x -> x.name().equals(standby)).findFirst().orElse(null);
        boolean streaming = r != null && "streaming".equals(r.state());
        if (streaming && r.lagBytes() == 0) {
            String mode = synchronous ? "synchronous" : "being made synchronous";
            return new Verdict(State.IN_SYNC, null, synchronous ? Change.NONE : Change.MAKE_SYNCHRONOUS,
                    "standby " + standby + ": in sync, " + mode);
        }
        Instant since = outOfSyncSince == null ? now : outOfSyncSince;
        boolean overdue = !now.isBefore(since.plus(DEADLINE));
        Change change = synchronous && overdue ? Change.MAKE_ASYNCHRONOUS : Change.NONE;
        String alone = synchronous && !overdue
                ? "; the seat's commits wait for it until " + since.plus(DEADLINE)
                : "; the seat commits without it until it is back in sync";
        if (streaming) {
            return new Verdict(State.CATCHING_UP, since, change, "standby " + standby + ": catching up, "
                    + Bytes.human(r.lagBytes()) + " behind, not in sync since " + since + alone);
        }
        return new Verdict(State.AWAY, since, change, "standby " + standby + ": not in sync since " + since
                + (r == null ? " (not connected to the seat)" : " (" + r.state() + ")") + alone);
    }

    /**
     * The standbys to be synchronous after a look: each whose verdict makes it synchronous, and each synchronous now that
     * it leaves so ({@code synchronousNow}: the names the setting holds now; {@code verdicts}: each standby's verdict).
     */
    public static SortedSet<String> synchronousAfter(Map<String, Verdict> verdicts, Set<String> synchronousNow) {
        SortedSet<String> names = new TreeSet<>();
        verdicts.forEach((standby, v) -> {
            if (v.change() == Change.MAKE_SYNCHRONOUS || v.change() == Change.NONE && synchronousNow.contains(standby)) {
                names.add(standby);
            }
        });
        return names;
    }

    /**
     * The value of {@code synchronous_standby_names} that makes each of {@code standbys} synchronous: one alone by its
     * name, several as {@code FIRST n (…)} with n all of them, so a commit waits for every one and whichever is promoted
     * holds every commit the seat acknowledged (PostgreSQL's default, a bare list, waits for the first only); none: empty.
     */
    public static String standbyNames(Collection<String> standbys) {
        List<String> quoted = standbys.stream().map(n -> "\"" + n.replace("\"", "") + "\"").toList();
        return quoted.size() <= 1 ? String.join("", quoted) : "FIRST " + quoted.size() + " (" + String.join(", ", quoted) + ")";
    }

    /** The standbys a {@code synchronous_standby_names} value names, as {@link #standbyNames} writes it (or a bare list). */
    public static Set<String> namedIn(String setting) {
        String list = setting.strip();
        Matcher m = NUMBERED.matcher(list);
        if (m.matches()) {
            list = m.group(1);
        }
        Set<String> names = new TreeSet<>();
        for (String n : list.split(",")) {
            String name = n.strip().replace("\"", "");
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    private static final Pattern NUMBERED = Pattern.compile("(?i)(?:FIRST|ANY)?\\s*\\d+\\s*\\((.*)\\)");
}
