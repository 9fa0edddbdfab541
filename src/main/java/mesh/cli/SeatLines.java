package mesh.cli;

import java.util.ArrayList;
import java.util.List;
import mesh.wire.SeatsView;

/**
 * SeatLines is what {@code mesh status} says of the seats (docs/seat.md): the seat and its epoch, then each standby in the
 * words of the seat's watch ({@code standby n2: in sync, synchronous}, or since when it is not in sync), then where the
 * artifact store runs and that its content is not on the standby. Without a standby, only the artifact store when it runs
 * on another node than the seat (a promoted seat's, left on the seat it deposed). Nothing else for a mesh
 * without a standby, or a controller too old to answer.
 */
final class SeatLines {

    private SeatLines() {
    }

    static List<String> of(SeatsView seats) {
        if (seats == null) {
            return List.of();
        }
        if (seats.standbys() == null || seats.standbys().isEmpty()) {
            // no standby: the artifact store is named only when it is not on the seat (a promoted seat's, left on the old one)
            return seats.artifactStore() == null || seats.seat() == null || seats.seat().isEmpty()
                    || seats.artifactStore().node().equals(seats.seat()) ? List.of()
                    : List.of(seats.artifactStore().words());
        }
        List<String> lines = new ArrayList<>();
        lines.add("seat " + (seats.seat() == null || seats.seat().isEmpty() ? "(unnamed)" : seats.seat()) + " at epoch " + seats.epoch()
                + ", " + seats.standbys().size() + (seats.standbys().size() == 1 ? " standby" : " standbys"));
        for (SeatsView.Standby s : seats.standbys()) {
            String lag = s.lagBytes() < 0 || s.lagBytes() == Long.MAX_VALUE ? "" : " (lag " + mesh.plan.Bytes.human(s.lagBytes()) + ")";
            lines.add(s.words() + lag);
        }
        if (seats.artifactStore() != null) {
            lines.add(seats.artifactStore().words());
        }
        return lines;
    }
}
