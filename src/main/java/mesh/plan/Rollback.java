package mesh.plan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.Node;
import mesh.model.Placement;

/**
 * Rollback is what {@code mesh rollback PUSH} decides, apart from what it does: from the input a push
 * planned from ({@link PushInput}) and the mesh as it is today, the catalogue and placements to plan
 * and store again, and what to tell the operator. The push itself is an ordinary one from there on
 * (preview, budget, the mesh's own modules). Pure.
 *
 * <p>The rules (docs/design.md, "Rollback"):
 * <ul>
 * <li>the catalogue becomes exactly the push's: modules removed since come back, modules added since
 *     leave it (and stop where they run);</li>
 * <li>the placements become the push's, on today's nodes: a placement on a node removed since is
 *     dropped, and said;</li>
 * <li>a module's data never moves and is never rolled back: a module taken today on another node than
 *     then stays where it is taken (and its data is), and volumes stay as they are; a component with a
 *     volume whose image changes is named, since an older image meets data a newer one wrote.</li>
 * </ul>
 */
public final class Rollback {

    /** KEPT is how many pushes' inputs the controller keeps, the newest: an older push cannot be rolled back to. */
    public static final int KEPT = 50;

    private Rollback() {
    }

    /** Restored is the catalogue and placements to plan from and to store, with notes for the preview. */
    public record Restored(List<PushInput.Module> catalogue, List<Placement> placements, List<String> notes) {

        public List<mesh.model.Manifest> manifests() {
            return catalogue.stream().map(PushInput.Module::manifest).toList();
        }
    }

    /**
     * The catalogue and placements to roll back to: {@code input}'s, on {@code nodes} (today's),
     * beside {@code today} (today's placements) and {@code catalogueToday} (today's module names).
     */
    public static Restored restore(PushInput input, List<Node> nodes, List<Placement> today, Collection<String> catalogueToday) {
        long push = input.push();
        Set<String> live = nodes.stream().map(Node::name).collect(Collectors.toSet());
        Map<String, Placement> now = new TreeMap<>();
        today.forEach(p -> now.put(p.module(), p));
        List<String> notes = new ArrayList<>();
        notes.add("rolling back to push " + push + ": the catalogue and placements as they were then, on today's nodes and"
                + " addresses; data is not rolled back: every volume stays as it is");

        Set<String> then = new TreeSet<>();
        input.catalogue().forEach(m -> then.add(m.manifest().module()));
        for (String m : then) {
            if (!catalogueToday.contains(m)) {
                notes.add("module " + m + " comes back to the catalogue (it was removed after push " + push + ")");
            }
        }
        for (String m : new TreeSet<>(catalogueToday)) {
            if (!then.contains(m)) {
                notes.add("module " + m + " leaves the catalogue (it was added after push " + push + "); it stops where it"
                        + " runs, its volumes stay");
            }
        }

        List<Placement> placements = new ArrayList<>();
        for (Placement p : input.placements()) {
            if (!then.contains(p.module())) {
                continue;
            }
            String assigned = p.assigned();
            if (assigned != null && !live.contains(assigned)) {
                notes.add(removedNode(assigned, push, p.module(), "assigned"));
                assigned = null;
            }
            String taken = taken(p, now.get(p.module()), live, push, notes);
            if (assigned != null || taken != null) {
                placements.add(new Placement(p.module(), assigned, taken));
            }
        }
        return new Restored(input.catalogue(), placements, notes);
    }

    /**
     * Where the module runs after the rollback: where it is taken today if that is another live node
     * than then (its data is there; a take moves data, a rollback does not), else where it ran then.
     */
    private static String taken(Placement then, Placement now, Set<String> live, long push, List<String> notes) {
        String was = then.taken();
        String is = now == null ? null : now.taken();
        if (was != null && is != null && !was.equals(is) && live.contains(is)) {
            notes.add("module " + then.module() + " stays on node " + is + ", where it is taken and its data is (at push "
                    + push + " it ran on " + was + "); 'mesh take " + was + " " + then.module() + "' moves it with its data");
            return is;
        }
        if (was != null && !live.contains(was)) {
            notes.add(removedNode(was, push, then.module(), "running"));
            return null;
        }
        return was;
    }

    private static String removedNode(String node, long push, String module, String how) {
        return "node " + node + " was removed after push " + push + ": module " + module + ", " + how
                + " there then, is not placed there";
    }

    /**
     * The notes "data is not rolled back", one per component of the plan that has volumes and whose
     * image (or bundle) differs from the one its node runs now ({@code acked}: each node's acknowledged
     * declaration, null for none).
     */
    public static List<String> dataNotes(Map<String, Declaration> acked, MeshPlan plan) {
        List<String> notes = new ArrayList<>();
        new TreeMap<>(plan.nodes()).forEach((node, components) -> {
            Declaration d = acked.get(node);
            if (d == null) {
                return;
            }
            for (ComponentSpec c : components) {
                if (c.volumes() == null || c.volumes().isEmpty()) {
                    continue;
                }
                d.components().stream().filter(x -> x.name().equals(c.name())).findFirst()
                        .filter(x -> !Objects.equals(x.image(), c.image()) || !Objects.equals(x.bundle(), c.bundle()))
                        .ifPresent(x -> notes.add("data is not rolled back: " + c.name() + " on " + node + " goes from "
                                + what(x) + " to " + what(c) + " on its volumes as they are ("
                                + String.join(", ", new TreeSet<>(c.volumes().keySet()))
                                + "); an older image meets data a newer one may have written"));
            }
        });
        return notes;
    }

    private static String what(ComponentSpec c) {
        return c.image() != null ? "image " + c.image() : "bundle " + c.bundle();
    }

    /**
     * The bundles to pin: the push's own pins for the references it pinned (the digests it ran), today's
     * for any other ({@code resolved}: what the artifact store says now).
     */
    public static BundlePins pins(PushInput input, BundlePins resolved) {
        Map<String, String> pinned = new TreeMap<>(resolved.pinned());
        pinned.putAll(input.pins());
        Map<String, String> failures = new TreeMap<>(resolved.failures());
        input.pins().keySet().forEach(failures::remove);
        return new BundlePins(pinned, failures);
    }

    /**
     * The refusal of a rollback to {@code push} that the controller holds no input for: {@code verb} is
     * the audit trail's verb of that id, or null when the trail has no such row.
     */
    public static String notKept(long push, String verb) {
        String list = "; 'mesh rollback --list' shows the pushes that can be rolled back to; nothing was changed";
        if (verb == null) {
            return "push " + push + " is not in the audit trail" + list;
        }
        if (!verb.equals("push") && !verb.equals("rollback")) {
            return "audit record " + push + " is a '" + verb + "', not a push" + list;
        }
        return "push " + push + "'s input is no longer kept (the controller keeps the inputs of the last " + KEPT
                + " pushes, and none from before it kept them)" + list;
    }
}
