package mesh.plan;

import java.util.List;
import mesh.model.Placement;

/**
 * FormerSeat is how {@code mesh seat add NODE} makes a deposed seat the standby of the seat that replaced it, decided
 * purely (docs/seat.md, "The old seat returns as the standby"). After a promote the catalogue still places the deposed
 * seat's store ({@value SeatCatalogue#STORE}) and controller ({@value SeatCatalogue#CONTROLLER}) on its node: left
 * there, the new seat's pushes would run a second controller and a store of its own on it. A node that holds either
 * and is not this controller's seat is a <em>former seat</em>: both are let go there (placed nowhere; the store's
 * volume, the deposed cluster, stays on the node untouched, kept aside), and the node gets a standby module of its own,
 * a fresh {@code pg_basebackup} of the new seat's store into a new volume. Never a second seat.
 */
public final class FormerSeat {

    /** The modules that make a node the seat: what a former seat must let go. */
    public static final List<String> SEAT_MODULES = List.of(SeatCatalogue.STORE, SeatCatalogue.CONTROLLER);

    private FormerSeat() {
    }

    /**
     * The seat's modules {@code node} holds (assigned or taken there) while {@code seat} is this controller's node: the
     * deposed seat's store and controller to let go; empty for the seat itself and for any other node.
     */
    public static List<String> held(String node, String seat, List<Placement> placements) {
        if (node.equals(seat)) {
            return List.of();
        }
        return placements.stream().filter(p -> SEAT_MODULES.contains(p.module()))
                .filter(p -> node.equals(p.assigned()) || node.equals(p.taken())).map(Placement::module).sorted().toList();
    }

    /**
     * Whether {@code node}'s push must let the seat's modules go there: it is not the seat and its acknowledged
     * declaration ({@code ackedModules}) still runs the store or the controller. Decided from what the node runs, not
     * from the placements alone, so that a {@code mesh seat add} cut short after the placements were let go and before
     * the push resumes: run again, it pushes the same.
     */
    public static boolean stillRuns(String node, String seat, java.util.Collection<String> ackedModules) {
        return !node.equals(seat) && SEAT_MODULES.stream().anyMatch(ackedModules::contains);
    }

    /** {@code p} let go from {@code node}: neither assigned nor taken there any more. */
    public static Placement letGo(Placement p, String node) {
        return new Placement(p.module(), node.equals(p.assigned()) ? null : p.assigned(), node.equals(p.taken()) ? null : p.taken());
    }

    /**
     * The standby module for {@code standby}: {@value StandbyPlan#MODULE} while that runs nowhere else (the first
     * standby, or this one again); {@code mesh-standby-NODE} when {@value StandbyPlan#MODULE} is placed on another node,
     * which after a promote is the seat's own store: one module is one spec, and the new standby streams from another
     * seat under another name, so it is a module of its own.
     */
    public static String standbyModule(String standby, List<Placement> placements) {
        return placements.stream().filter(p -> StandbyPlan.MODULE.equals(p.module())).findFirst()
                .filter(p -> p.taken() != null && !p.taken().equals(standby) || p.taken() == null && p.assigned() != null
                        && !p.assigned().equals(standby))
                .map(p -> StandbyPlan.MODULE + "-" + standby).orElse(StandbyPlan.MODULE);
    }
}
