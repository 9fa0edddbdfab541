package mesh.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * DrainPlacement is the drain's pure placement rule ({@code mesh drain}, docs/drain.md): for each module running on the
 * drained node, a target among the named {@code --to} nodes (or, none named, every node that is neither cordoned nor
 * the drained one) that is not cordoned, has room on disk for the module's data beside what this plan already put
 * there, and has every port the module publishes free. The fullest modules are placed first (the hardest to fit),
 * each onto the target with the most room left (spreading the data); the mesh's own modules come last, and those a
 * drain must not move are named and left with why. A module no target fits is named with each target's reason: never
 * left silently.
 */
public final class DrainPlacement {

    /** Modules a drain never moves: it runs on them (the controller and the store its runner writes to). */
    static final Map<String, String> STAYS = Map.of(
            SeatCatalogue.CONTROLLER, "the controller carries the drain out: move it with 'mesh take' once the drain ended",
            SeatCatalogue.STORE, "the store holds the drain's record: move it with 'mesh take' once the drain ended",
            EdgePlan.MODULE, "the node's edge serves the routes of the modules still on it; it is not moved by a drain");

    private DrainPlacement() {
    }

    /** One module on the drained node: its data's bytes there and the ports it publishes. */
    public record Module(String name, long bytes, Set<Integer> ports) {

        public Module {
            ports = ports == null ? Set.of() : Set.copyOf(ports);
        }
    }

    /** One node of the mesh as a target: cordoned or not, its free bytes (negative: not known) and the ports published on it. */
    public record Target(String name, boolean cordoned, long free, Set<Integer> ports) {

        public Target {
            ports = ports == null ? Set.of() : Set.copyOf(ports);
        }
    }

    /** A module and where it goes. */
    public record Placed(String module, String target) {
    }

    /** A module the rule does not move, and why. */
    public record Left(String module, String why) {
    }

    /** The plan: the modules in the order they move (the mesh's own last), and those left. */
    public record Result(List<Placed> placed, List<Left> left) {

        public Result {
            placed = List.copyOf(placed);
            left = List.copyOf(left);
        }
    }

    /**
     * Places every module of {@code modules} (those on {@code drained}) onto {@code targets}: {@code to} names the nodes it
     * may go to, empty for every node that is not cordoned and not the drained one.
     */
    public static Result place(String drained, List<Module> modules, List<Target> targets, List<String> to) {
        Map<String, Target> byName = new LinkedHashMap<>();
        targets.stream().sorted(Comparator.comparing(Target::name)).forEach(t -> byName.put(t.name(), t));
        List<Target> candidates = to.isEmpty()
                ? byName.values().stream().filter(t -> !t.cordoned() && !t.name().equals(drained)).toList()
                : to.stream().distinct().map(byName::get).filter(t -> t != null).toList();
        Map<String, Long> room = new HashMap<>();
        Map<String, Set<Integer>> ports = new HashMap<>();
        candidates.forEach(t -> {
            room.put(t.name(), t.free());
            ports.put(t.name(), new HashSet<>(t.ports()));
        });
        List<Placed> placed = new ArrayList<>();
        List<Left> left = new ArrayList<>();
        for (Module m : ordered(modules)) {
            if (STAYS.containsKey(m.name())) {
                left.add(new Left(m.name(), STAYS.get(m.name())));
                continue;
            }
            List<String> why = new ArrayList<>();
            Target best = null;
            for (Target t : candidates) {
                String no = refusal(t, m, room.get(t.name()), ports.get(t.name()));
                if (no != null) {
                    why.add(t.name() + ": " + no);
                } else if (best == null || room.get(t.name()) > room.get(best.name())) {
                    best = t;
                }
            }
            if (best == null) {
                left.add(new Left(m.name(), candidates.isEmpty() ? "no node to move it to (every other node is cordoned)"
                        : "no target fits: " + String.join("; ", why)));
                continue;
            }
            placed.add(new Placed(m.name(), best.name()));
            if (room.get(best.name()) >= 0) {
                room.put(best.name(), room.get(best.name()) - m.bytes());
            }
            ports.get(best.name()).addAll(m.ports());
        }
        return new Result(placed, left);
    }

    /** Why {@code m} cannot go onto {@code t} with {@code room} bytes left there and {@code used} ports taken; null when it can. */
    static String refusal(Target t, Module m, long room, Set<Integer> used) {
        if (t.cordoned()) {
            return "cordoned";
        }
        if (room >= 0 && room < m.bytes()) {
            return "room for " + Bytes.human(Math.max(room, 0)) + ", its data is " + Bytes.human(m.bytes());
        }
        List<Integer> taken = m.ports().stream().filter(used::contains).sorted().toList();
        if (!taken.isEmpty()) {
            return "port" + (taken.size() == 1 ? " " : "s ") + taken.stream().map(String::valueOf)
                    .reduce((a, b) -> a + ", " + b).orElse("") + " already published there";
        }
        return null;
    }

    /** The order modules are placed in: ordinary ones first, the fullest first, then the mesh's own; by name within. */
    static List<Module> ordered(List<Module> modules) {
        return modules.stream().sorted(Comparator.comparing((Module m) -> MeshModules.isMeshModule(m.name()))
                .thenComparing(Comparator.comparingLong(Module::bytes).reversed()).thenComparing(Module::name)).toList();
    }
}
