package mesh.plan;

import mesh.model.TakeStep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.Placement;

/**
 * TakeStart is what a take needs of the planner, without changing its rules: the placements as if
 * the module were taken on the target, the declaration that starts it there before the switch, the
 * module's volumes, and which take {@code --back} reverses.
 *
 * <p>The start declaration is the target's declaration of today's plan (names where they are now: the
 * target's binders keep the source's address, its edge keeps its routes, an edge the module's routes
 * would bring is not started yet) with the module's own components as the plan where it is taken on the
 * target makes them. After the switch the push sends
 * the target the whole of that second plan: the module's components are then the same (kept), only
 * the target's binders change (replaced), and its edge gets the routes (reloaded).
 */
public final class TakeStart {

    private TakeStart() {
    }

    /** {@code placements} with {@code module} assigned and taken on {@code node}. */
    public static List<Placement> asTaken(List<Placement> placements, String module, String node) {
        List<Placement> next = new ArrayList<>();
        placements.stream().filter(p -> !p.module().equals(module)).forEach(next::add);
        next.add(new Placement(module, node, node));
        return next;
    }

    /**
     * {@code placements} as the nodes run them while other takes (or restores) start their modules: each of
     * {@code running} but {@code module}'s own that stands at its start or its switch counts as taken on its target, so
     * a start declaration sent meanwhile keeps the other module's components there. Without it two takes starting
     * modules on one node undo each other: the second's start declaration, made from placements where the first is not
     * yet taken, removes the first's components before its switch.
     */
    public static List<Placement> whileStarting(List<Placement> placements, List<Take> running, String module) {
        List<Placement> next = placements;
        for (Take t : running) {
            if (!t.module().equals(module) && (t.step() == TakeStep.START || t.step() == TakeStep.SWITCH)) {
                next = asTaken(next, t.module(), t.to());
            }
        }
        return next;
    }

    /** The target's components while the module starts there: see the class comment. */
    public static List<ComponentSpec> components(MeshPlan now, MeshPlan asTaken, String module, String node) {
        Map<String, ComponentSpec> today = new LinkedHashMap<>();
        now.nodes().getOrDefault(node, List.of()).forEach(c -> today.put(c.module() + "/" + c.name(), c));
        List<ComponentSpec> components = new ArrayList<>();
        for (ComponentSpec c : asTaken.nodes().getOrDefault(node, List.of())) {
            ComponentSpec before = today.get(c.module() + "/" + c.name());
            if (c.module().equals(module)) {
                components.add(c);
            } else if (before != null) {
                components.add(before);
            }
        }
        return components;
    }

    /** The start declaration for {@code target}, numbered after the highest generation sent to it. */
    public static Declaration declaration(MeshPlan now, MeshPlan asTaken, String module, Node target, long lastGeneration) {
        List<ComponentSpec> components = components(now, asTaken, module, target.name());
        return new Declaration(target.name(), target.address(), lastGeneration + 1, components,
                asTaken.registryFor(components), now.edges().get(target.name()));
    }

    /**
     * The module's volumes by manifest name, each with its kind: {@code process} when a process
     * component mounts it (a folder in the agent's state dir), else {@code container} (an engine volume).
     */
    public static List<Take.Volume> volumes(Manifest m) {
        Map<String, String> kinds = new java.util.TreeMap<>();
        m.components().values().forEach(c -> c.volumes().keySet().forEach(v ->
                kinds.merge(v, c.bundle() != null ? "process" : "container", (a, b) -> a.equals("process") ? a : b)));
        List<Take.Volume> volumes = new ArrayList<>();
        kinds.forEach((name, kind) -> volumes.add(new Take.Volume(name, kind, 0, 0, false, null, null)));
        return volumes;
    }

    /**
     * The take {@code mesh take --back} reverses: the newest take of the module that is done, came from a
     * node, and brought it where it runs now. Empty when there is none: nothing to go back to.
     */
    public static Optional<Take> toReverse(List<Take> history, Placement now) {
        return history.stream().filter(t -> t.step() == TakeStep.DONE && t.from() != null && t.to().equals(now.taken()))
                .max(java.util.Comparator.comparingLong(Take::epoch));
    }
}
