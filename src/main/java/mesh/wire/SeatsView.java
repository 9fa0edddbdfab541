package mesh.wire;

import java.util.List;

/**
 * SeatsView is what {@code GET /v1/mesh/seats} says of the seats (docs/seat.md): the seat this controller runs on and
 * its epoch, each standby as the standby watch last found it, and where the artifact store runs and whether its content
 * exists anywhere else (null when it runs nowhere), for {@code mesh status} and the verbs that write to the artifact store.
 */
public record SeatsView(String seat, long epoch, List<Standby> standbys, ArtifactStoreView artifactStore) {

    /** Seats without a word on the artifact store (a controller from before it). */
    public SeatsView(String seat, long epoch, List<Standby> standbys) {
        this(seat, epoch, standbys, null);
    }

    /**
     * Standby is one standby: its node, its state ({@code IN_SYNC}, {@code CATCHING_UP}, {@code AWAY}, or
     * {@code UNKNOWN} before the first look), whether the seat's commits wait for it, its lag in bytes (-1: not
     * connected), since when it is not in sync (ISO-8601, null while it is) and the words {@code mesh status} prints.
     */
    public record Standby(String node, String state, boolean synchronous, long lagBytes, String outOfSyncSince, String words) {
    }
}
