package mesh.host.take;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import mesh.model.Declaration;

/**
 * TakeRules decides every take call on this node from the module's {@link TakeState}: pure, no I/O, the
 * time passed in. Each rule returns the state to record (the caller records it before it acts) or throws
 * {@link TakeRefused}, naming the module or volume; a refusal changes nothing.
 *
 * <p>The epoch rule is the one that keeps two takes apart: a call whose epoch is lower than the newest this
 * node has seen for the module is refused. Only {@code forget-old} is exempt, because it names the epoch of
 * an old copy, which later takes of the module through other nodes do not change.
 */
public final class TakeRules {

    /** A module or volume name as manifests allow it; anything else never reaches a path on disk. */
    static final Pattern NAME = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}");

    private TakeRules() {
    }

    /** Refuses a module or volume name that is not one (it would otherwise name a path). */
    public static String name(String what, String name) {
        if (name == null || !NAME.matcher(name).matches() || name.contains("..")) {
            throw TakeRefused.bad(what + " '" + name + "' is not a valid name (letters, digits, '_', '.', '-')");
        }
        return name;
    }

    /** Refuses a kind other than container or process. */
    public static String kind(String kind) {
        if (!"container".equals(kind) && !"process".equals(kind)) {
            throw TakeRefused.bad("kind must be 'container' or 'process', got '" + kind + "'");
        }
        return kind;
    }

    /** Refuses an epoch that is not positive, or older than the newest this node saw for the module. */
    static void current(TakeState s, long epoch) {
        if (epoch <= 0) {
            throw TakeRefused.bad("epoch must be a positive number, got " + epoch + " (module " + s.module() + ")");
        }
        if (epoch < s.epoch()) {
            throw TakeRefused.conflict(mesh.wire.Reason.NEWER_EPOCH, "a newer take (epoch " + s.epoch() + ") holds module " + s.module()
                    + " here; epoch " + epoch + " is refused and nothing was changed");
        }
    }

    /**
     * Sets the fence at {@code epoch}: the same epoch again is the same state (idempotent); a newer one
     * replaces the fence and voids the tickets of the older one.
     */
    public static TakeState fence(TakeState s, long epoch, Instant now) {
        current(s, epoch);
        if (s.fenced() && s.fence().epoch() == epoch) {
            return !s.fence().created() ? s : s.with(epoch, new TakeState.Fence(epoch, s.fence().since()), s.tickets(),
                    s.copies(), s.oldCopies());   // a fence of the take's own now (stop-target): the rollback lifts it
        }
        return s.with(epoch, new TakeState.Fence(epoch, now.toString()), List.of(), s.copies(), s.oldCopies())
                .withLive(List.of());
    }

    /**
     * Sets the fence a take's target stands under while it creates the module's containers before the source's fence
     * (docs/take.md, "The target's containers, created before the fence"): as {@link #fence}, marked {@code created}.
     * Refused while the module runs here (this node is the take's target: nothing of the module runs here), and over a
     * fence at the same epoch that is not a created one (this node is that take's source, or its target was stopped by
     * the rollback). A created fence is lifted by the start, after the start declaration, or by the rollback's delete of
     * this take's copy ({@link #delete}) when the declaration here has not the module; when it has (a node the take's
     * push missed), that delete leaves the fence, the take's own.
     */
    public static TakeState fenceToCreate(TakeState s, long epoch, Instant now, boolean moduleRuns) {
        current(s, epoch);
        if (moduleRuns) {
            throw TakeRefused.conflict("module " + s.module() + " runs on this node: its containers are not created for a"
                    + " take to it; nothing was changed");
        }
        if (s.fenced() && s.fence().epoch() == epoch) {
            if (!s.fence().created()) {
                throw TakeRefused.conflict("module " + s.module() + " is fenced here by the take at epoch " + epoch
                        + " itself: its containers are not created here; nothing was changed");
            }
            return s;
        }
        return s.with(epoch, new TakeState.Fence(epoch, now.toString(), true), List.of(), s.copies(), s.oldCopies())
                .withLive(List.of());
    }

    /** Lifts the fence (no fence: the same state); voids its tickets. */
    public static TakeState lift(TakeState s, long epoch) {
        current(s, epoch);
        return s.fenced() ? s.with(Math.max(s.epoch(), epoch), null, List.of(), s.copies(), s.oldCopies()).withLive(List.of())
                : s.liveTickets().isEmpty() ? s : s.withLive(List.of());
    }

    /** How many pre-copy tickets are kept (the newest): each pass asks for one. */
    static final int LIVE_TICKETS = 16;

    /**
     * A pre-copy ticket's hash at {@code epoch}: it reads the module's volumes while the module runs, for a take's
     * passes before its fence. Refused while a fence stands (the take then reads with the fence's tickets); a newer
     * epoch voids the older take's pre-copy tickets, and so do a fence and a lift.
     */
    public static TakeState liveTicket(TakeState s, long epoch, String ticketHash) {
        current(s, epoch);
        if (s.fenced()) {
            throw TakeRefused.conflict("module " + s.module() + " is fenced here at epoch " + s.fence().epoch()
                    + ": its volumes are read with a ticket of the fence, not of a pre-copy");
        }
        List<String> live = new ArrayList<>(epoch == s.epoch() ? s.liveTickets() : List.of());
        live.add(ticketHash);
        return s.with(epoch, null, s.tickets(), s.copies(), s.oldCopies())
                .withLive(live.subList(Math.max(0, live.size() - LIVE_TICKETS), live.size()));
    }

    /** A ticket's hash added to the fence at {@code epoch}: refused unless the module is fenced here at that epoch. */
    public static TakeState ticket(TakeState s, long epoch, String ticketHash) {
        current(s, epoch);
        requireFencedAt(s, epoch);
        List<String> tickets = new ArrayList<>(s.tickets());
        tickets.add(ticketHash);
        return s.with(s.epoch(), s.fence(), tickets, s.copies(), s.oldCopies());
    }

    /** Whether a ticket (by its hash) may read this module's volumes now: handed out under the standing fence. */
    public static boolean ticketValid(TakeState s, String ticketHash) {
        return s.fenced() ? s.tickets().contains(ticketHash) : s.liveTickets().contains(ticketHash);
    }

    /** Refuses to stream a volume of a module that is not fenced here: its data is read only while nothing writes it. */
    public static void requireArchivable(TakeState s, String volume) {
        requireArchivable(s, volume, false);
    }

    /**
     * As above; {@code live} (a pre-copy's pass) allows it while the module runs too, when a pre-copy ticket of the
     * newest take stands (a lift or a fence voided the others): the reader sends it again after the fence.
     */
    public static void requireArchivable(TakeState s, String volume, boolean live) {
        if (live && !s.fenced() && !s.liveTickets().isEmpty()) {
            return;
        }
        if (!s.fenced()) {
            throw TakeRefused.conflict("module " + s.module() + " is not fenced here: volume " + volume
                    + " is archived only while a take's fence keeps the module stopped");
        }
    }

    private static void requireFencedAt(TakeState s, long epoch) {
        if (!s.fenced()) {
            throw TakeRefused.conflict("module " + s.module() + " is not fenced here; fence it at epoch " + epoch
                    + " before reading its data");
        }
        if (s.fence().epoch() != epoch) {
            throw TakeRefused.conflict("module " + s.module() + " is fenced here at epoch " + s.fence().epoch()
                    + ", not " + epoch);
        }
    }

    /**
     * Whether a copy of {@code volume} at {@code epoch} may begin here, and the state that records it. The
     * target must not run the module. A volume that already holds data is emptied only when a take put it
     * here: a copy (partial or whole) a take made here, or the old copy a take left here; any other data is
     * refused, so a copy never overwrites what no take made.
     */
    public static TakeState beginCopy(TakeState s, String volume, long epoch, String kind, boolean holdsData,
                                      boolean moduleRuns) {
        current(s, epoch);
        if (moduleRuns) {
            throw TakeRefused.conflict("module " + s.module() + " runs on this node: volume " + volume
                    + " is not copied over a running module");
        }
        if (holdsData && !mayEmpty(s, volume)) {
            throw TakeRefused.conflict("volume " + volume + " of module " + s.module()
                    + " already holds data that no take left here; nothing was changed");
        }
        Map<String, TakeState.Mark> copies = new HashMap<>(s.copies());
        copies.put(volume, new TakeState.Mark(epoch, kind));
        Map<String, TakeState.Mark> old = new HashMap<>(s.oldCopies());
        old.remove(volume);
        return s.with(epoch, s.fence(), s.tickets(), copies, old);
    }

    /**
     * Whether a pass of {@code volume} at {@code epoch} may keep what is here and send only the difference: this
     * take's copy (partial or whole) is here. Otherwise the pass is a whole copy, into an emptied volume.
     */
    public static boolean keepsCopy(TakeState s, String volume, long epoch) {
        TakeState.Mark mark = s.copies().get(volume);
        return mark != null && mark.epoch() == epoch;
    }

    /** Whether a copy may empty {@code volume} here: only what a take put here (a copy, or a recorded old copy). */
    public static boolean mayEmpty(TakeState s, String volume) {
        return s.copies().containsKey(volume) || s.oldCopies().containsKey(volume);
    }

    /**
     * Whether {@code declaration} (this node's accepted one; null: none yet) runs a component of {@code module}: what a
     * pass starts once no fence stands ({@link #delete}).
     */
    public static boolean declares(Declaration declaration, String module) {
        return declaration != null && declaration.components().stream().anyMatch(c -> module.equals(c.module()));
    }

    /** The reasons a node's copy of a volume may be deleted for. */
    public enum Reason {
        ROLLBACK, FORGET_OLD;

        public static Reason parse(String text) {
            return switch (text == null ? "" : text) {
                case "rollback" -> ROLLBACK;
                case "forget-old" -> FORGET_OLD;
                default -> throw TakeRefused.bad("reason must be 'rollback' or 'forget-old', got '" + text + "'");
            };
        }
    }

    /**
     * Whether this node's copy of {@code volume} may be deleted, and the state without it: {@code rollback}
     * deletes only a copy the take at {@code epoch} made here, {@code forget-old} only the copy recorded as
     * left by the take at {@code epoch}. Never while the module runs here, never any other volume.
     *
     * <p>The rollback's delete of the copy of the take that created the module's containers here ({@link #fenceToCreate})
     * lifts that created fence only when {@code declaredHere} is false: this node's accepted declaration does not run
     * the module, so the next pass removes what is left of it. When it does run it (this node was a done take's source
     * that the take's push did not reach: the created fence replaced the fence that kept the module stopped there), the
     * fence stays, the take's own at the same epoch: lifted, the next pass would start the module from that declaration
     * on an emptied volume while it runs where the take came from. It stays until a take lifts it (a take's start
     * there), whatever declaration comes.
     */
    public static TakeState delete(TakeState s, String volume, long epoch, Reason reason, boolean moduleRuns,
                                   boolean declaredHere) {
        if (reason == Reason.ROLLBACK) {
            current(s, epoch);
        } else if (epoch <= 0) {
            throw TakeRefused.bad("epoch must be a positive number, got " + epoch + " (module " + s.module() + ")");
        }
        if (moduleRuns) {
            throw TakeRefused.conflict("module " + s.module() + " runs on this node: volume " + volume + " is not deleted");
        }
        Map<String, TakeState.Mark> marks = new HashMap<>(reason == Reason.ROLLBACK ? s.copies() : s.oldCopies());
        TakeState.Mark mark = marks.get(volume);
        if (mark == null || mark.epoch() != epoch) {
            throw TakeRefused.conflict(reason == Reason.ROLLBACK ? mesh.wire.Reason.NOT_TAKES_COPY : mesh.wire.Reason.NOT_OLD_COPY,
                    reason == Reason.ROLLBACK
                    ? "volume " + volume + " of module " + s.module() + " was not made here by the take at epoch " + epoch
                            + "; nothing was deleted"
                    : "volume " + volume + " of module " + s.module() + " is not recorded here as the old copy of the take at epoch "
                            + epoch + "; nothing was deleted");
        }
        marks.remove(volume);
        if (reason == Reason.ROLLBACK && s.fenced() && s.fence().created() && s.fence().epoch() == epoch) {
            // the take that created the module's containers here rolls back: the fence goes with its copy, and the
            // next pass removes those containers, unless the declaration here runs the module: then it stays stopped
            return s.with(s.epoch(), declaredHere ? new TakeState.Fence(epoch, s.fence().since()) : null,
                    declaredHere ? s.tickets() : List.of(), marks, s.oldCopies());
        }
        return reason == Reason.ROLLBACK ? s.with(s.epoch(), s.fence(), s.tickets(), marks, s.oldCopies())
                : s.with(s.epoch(), s.fence(), s.tickets(), s.copies(), marks);
    }

    /**
     * Records {@code volumes} (volume to kind) as the copy the take at {@code epoch} left here, after its
     * module moved away; a copy mark of the same volume is dropped (the data is now the old copy).
     */
    public static TakeState oldCopy(TakeState s, long epoch, Map<String, String> volumes) {
        current(s, epoch);
        Map<String, TakeState.Mark> old = new HashMap<>(s.oldCopies());
        Map<String, TakeState.Mark> copies = new HashMap<>(s.copies());
        volumes.forEach((volume, kind) -> {
            old.put(volume, new TakeState.Mark(epoch, kind));
            copies.remove(volume);
        });
        return s.with(epoch, s.fence(), s.tickets(), copies, old);
    }
}
