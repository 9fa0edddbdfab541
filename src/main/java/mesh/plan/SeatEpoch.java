package mesh.plan;

/**
 * SeatEpoch is the newest controller an agent has heard from: the controller epoch it spoke at and the seat it
 * runs on. An agent keeps the newest it saw ({@link #after}) and refuses every change from an older one
 * ({@link #refusal}): after {@code mesh seat promote} the deposed seat's controller, even cut off and back,
 * can change nothing on any agent the new seat reached (docs/seat.md). A call that names no epoch (a
 * controller at epoch 0: tests, a plain-HTTP mesh; the installer's own calls) is neither raised nor refused.
 */
public record SeatEpoch(long epoch, String seat, String url) {

    /** The header a controller names its epoch in, on every call to an agent (none at epoch 0). */
    public static final String EPOCH_HEADER = "Mesh-Controller-Epoch";
    /** The header a controller names its seat (the node it runs on) in, beside {@link #EPOCH_HEADER}. */
    public static final String SEAT_HEADER = "Mesh-Controller-Seat";
    /** The header a controller names its own URL in (the operator's), beside {@link #EPOCH_HEADER}. */
    public static final String URL_HEADER = "Mesh-Controller-Url";

    /** What an agent has seen before any controller named an epoch. */
    public static final SeatEpoch NONE = new SeatEpoch(0, "");

    public SeatEpoch {
        seat = seat == null ? "" : seat.strip();
        url = url == null ? "" : url.strip();
    }

    /** A controller on {@code seat} whose URL is not known. */
    public SeatEpoch(long epoch, String seat) {
        this(epoch, seat, "");
    }

    /** The newest of this and a call from {@code caller}: the caller when its epoch is higher, else this. */
    public SeatEpoch after(SeatEpoch caller) {
        return caller.epoch > epoch ? caller : this;
    }

    /**
     * Why a call from {@code caller} that would change something is refused, or null when it is not: refused
     * only when it names an epoch older than this one. Equal epochs are the same controller (or a restart of it).
     */
    public String refusal(SeatEpoch caller) {
        if (caller.epoch <= 0 || caller.epoch >= epoch) {
            return null;
        }
        return "this controller" + named(caller.seat) + " (epoch " + caller.epoch + ") was replaced by the seat"
                + named(epoch > 0 ? seat : "") + " at epoch " + epoch + "; this agent refuses every change from it"
                + (seat.isEmpty() ? "" : "; use the controller on " + seat + (url.isEmpty() ? "" : " (" + url + ")"));
    }

    private static String named(String seat) {
        return seat.isEmpty() ? "" : " on " + seat;
    }

    /** A caller named by the headers' values (any may be null): an unreadable epoch is none. */
    public static SeatEpoch ofHeaders(String epoch, String seat, String url) {
        try {
            return epoch == null ? NONE : new SeatEpoch(Long.parseLong(epoch.strip()), seat, url);
        } catch (NumberFormatException e) {
            return NONE;
        }
    }

    /** The line an agent keeps it as: {@code EPOCH SEAT URL} (node names and URLs hold no space). */
    public String line() {
        return (epoch + " " + seat + " " + url).strip();
    }

    /** Reads {@link #line()}; anything unreadable is {@link #NONE} (the next controller's call raises it again). */
    public static SeatEpoch parse(String line) {
        String[] parts = line == null ? new String[0] : line.strip().split(" +", 3);
        try {
            return parts.length == 0 || parts[0].isEmpty() ? NONE
                    : new SeatEpoch(Long.parseLong(parts[0]), parts.length > 1 ? parts[1] : "", parts.length > 2 ? parts[2] : "");
        } catch (NumberFormatException e) {
            return NONE;
        }
    }
}
