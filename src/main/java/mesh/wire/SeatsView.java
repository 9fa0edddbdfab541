package mesh.wire;

import java.util.List;

/**
 * SeatsView is what {@code GET /v1/mesh/seats} says of the seats (docs/seat.md): the seat this controller runs on and
 * its epoch, and each standby as the standby watch last found it, for {@code mesh status}.
 */
public record SeatsView(String seat, long epoch, List<Standby> standbys) {

    /**
     * Standby is one standby: its node, its state ({@code IN_SYNC}, {@code CATCHING_UP}, {@code AWAY}, or
     * {@code UNKNOWN} before the first look), whether the seat's commits wait for it, its lag in bytes (-1: not
     * connected), since when it is not in sync (ISO-8601, null while it is) and the words {@code mesh status} prints.
     */
    public record Standby(String node, String state, boolean synchronous, long lagBytes, String outOfSyncSince, String words) {
    }
}
