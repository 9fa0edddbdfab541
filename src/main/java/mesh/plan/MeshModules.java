package mesh.plan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.EdgeTable;

/**
 * MeshModules keeps "the mesh cannot take itself down" (docs/design.md, invariant 11): a routine
 * change may not remove or stop the mesh's own modules where they run: its store ({@value
 * SeatCatalogue#STORE}), its artifact store ({@value SeatCatalogue#REGISTRY}), its controller
 * ({@value SeatCatalogue#CONTROLLER}), the seat's standby ({@value StandbyPlan#MODULE}: the store a promote makes the
 * seat's) and an edge ({@value EdgePlan#MODULE}) while it serves routes.
 * One push once removed the controller's own store under a preview that said "would replace 0".
 * Each verb that could stop one asks here first, before anything is stored or sent; pure.
 *
 * <p>The override is {@value #OVERRIDE} MODULE, naming the module it lets go, never {@code --yes}.
 * It does not exist for the controller (with it gone nothing answers, not even the verb that would
 * bring it back), nor for the store while the controller's {@code MESH_STORE_URL} points at the node it
 * runs on (the same). Moving one is {@code mesh take}.
 */
public final class MeshModules {

    /** OVERRIDE is the flag (and the API's field) that names a mesh module to remove all the same. */
    public static final String OVERRIDE = "--force-remove-mesh-module";

    private MeshModules() {
    }

    /**
     * Running is where a module runs now: the node, its mesh address and how many routed names the
     * node's edge serves (which matters only for the edge module).
     */
    public record Running(String module, String node, String address, int routes) {
    }

    /** Whether {@code module} is one of the mesh's own modules, protected or not where it runs now. */
    public static boolean isMeshModule(String module) {
        return SeatCatalogue.MODULES.contains(module) || EdgePlan.MODULE.equals(module) || StandbyPlan.isModule(module);
    }

    /** Whether stopping the module where it runs now takes part of the mesh down: a seat module always, the edge while it serves routes. */
    public static boolean protects(Running r) {
        return SeatCatalogue.MODULES.contains(r.module()) || StandbyPlan.isModule(r.module())
                || EdgePlan.MODULE.equals(r.module()) && r.routes() > 0;
    }

    /**
     * Why no override lets {@code r} go, or empty when naming it with {@value #OVERRIDE} does:
     * {@code storeUrl} is the controller's own {@code MESH_STORE_URL}.
     */
    public static Optional<String> unstoppable(Running r, String storeUrl) {
        if (SeatCatalogue.CONTROLLER.equals(r.module())) {
            return Optional.of("no flag lets the controller remove itself: nothing would answer after it, not even to undo it;"
                    + " 'mesh uninstall' ends a mesh");
        }
        if (SeatCatalogue.STORE.equals(r.module()) && r.address() != null && r.address().equals(storeHost(storeUrl))) {
            return Optional.of("no flag removes the store the controller runs on (its MESH_STORE_URL is " + storeUrl
                    + "); point the controller at another PostgreSQL first");
        }
        return Optional.empty();
    }

    /**
     * The refusal of {@code mesh unassign NODE MODULE} when it would stop a protected module there
     * ({@code r}: where it runs now, null when it runs nowhere), or empty.
     */
    public static Optional<String> unassign(String node, Running r, String storeUrl, Set<String> forced) {
        if (r == null || !r.node().equals(node) || !protects(r)) {
            return Optional.empty();
        }
        return refusal("unassigning " + r.module() + " from " + node, "nothing was changed", r, storeUrl, forced,
                "to move it, 'mesh take NODE " + r.module() + "'");
    }

    /**
     * The refusal of {@code mesh catalogue remove MODULE} while a protected module runs ({@code r},
     * null when it runs nowhere). It has no override: a module that runs is never removed from the
     * catalogue, and once unassigned (with the override) and pushed, it runs nowhere and is no longer protected.
     */
    public static Optional<String> catalogueRemove(Running r) {
        if (r == null || !protects(r)) {
            return Optional.empty();
        }
        return Optional.of("removing " + r.module() + " from the catalogue would stop it on " + r.node() + ": " + what(r)
                + "; it is refused while the module runs; to move it, 'mesh take NODE " + r.module() + "'");
    }

    /**
     * The refusal of {@code mesh node remove NODE} while protected modules run there ({@code there}),
     * naming each; no override: move them first.
     */
    public static Optional<String> nodeRemove(String node, Collection<Running> there) {
        List<Running> kept = there.stream().filter(r -> r.node().equals(node) && protects(r)).toList();
        if (kept.isEmpty()) {
            return Optional.empty();
        }
        List<String> each = kept.stream().map(r -> r.module() + " (" + what(r) + ")").toList();
        return Optional.of("removing node " + node + " would stop the mesh's own module" + (kept.size() > 1 ? "s " : " ")
                + String.join(", ", each) + "; move " + (kept.size() > 1 ? "them" : "it") + " first with 'mesh take NODE MODULE'"
                + (kept.stream().anyMatch(r -> EdgePlan.MODULE.equals(r.module()))
                ? " (the edge goes when no route is served under the node's public domain)" : ""));
    }

    /**
     * The refusals of a push whose plan drops a protected module that runs now, one per module, or none:
     * a seat module that some node acknowledged ({@code acked}, per node; a node that acknowledged
     * nothing runs nothing known) and that the plan runs on no node (a take moves it: it is then
     * planned on the target); an edge that a node runs now while its plan still gives it routes but
     * not the edge. {@code addresses} are the nodes' mesh addresses.
     */
    public static List<String> push(Map<String, Declaration> acked, MeshPlan plan, Map<String, String> addresses,
                                    String storeUrl, Set<String> forced) {
        Set<String> planned = new TreeSet<>();
        plan.nodes().values().forEach(cs -> cs.forEach(c -> planned.add(c.module())));
        Map<String, Running> dropped = new TreeMap<>();
        new TreeMap<>(acked).forEach((node, d) -> {
            if (d == null) {
                return;
            }
            for (ComponentSpec c : d.components()) {
                String m = c.module();
                if (SeatCatalogue.MODULES.contains(m) && !planned.contains(m)) {
                    dropped.putIfAbsent(m, new Running(m, node, addresses.get(node), 0));
                }
                EdgeTable edge = plan.edges().get(node);
                boolean edgeKept = plan.nodes().getOrDefault(node, List.of()).stream().anyMatch(x -> x.module().equals(m));
                if (EdgePlan.MODULE.equals(m) && edge != null && !edge.routes().isEmpty() && !edgeKept) {
                    dropped.putIfAbsent(m + "@" + node, new Running(m, node, addresses.get(node), edge.routes().size()));
                }
            }
        });
        List<String> refusals = new ArrayList<>();
        dropped.values().forEach(r -> refusal("this push, which drops " + r.module() + " from " + r.node() + ",",
                "nothing was sent", r, storeUrl, forced,
                "to move it, 'mesh take NODE " + r.module() + "'; to keep it, assign it again").ifPresent(refusals::add));
        return refusals;
    }

    /**
     * What each node acknowledged, read back from the store's copy; a node that acknowledged nothing
     * (or whose copy cannot be read) maps to null: nothing known runs there.
     */
    public static Map<String, Declaration> acked(List<PushDecision.Sent> sent) {
        Map<String, Declaration> acked = new java.util.HashMap<>();
        for (PushDecision.Sent s : sent) {
            Declaration d = null;
            if (s.ackedGeneration() > 0 && s.ackedDeclaration() != null) {
                try {
                    d = DeclarationJson.MAPPER.readValue(s.ackedDeclaration(), Declaration.class);
                } catch (java.io.IOException e) {
                    d = null;
                }
            }
            acked.put(s.node().name(), d);
        }
        return acked;
    }

    /** The host of a PostgreSQL JDBC URL ({@code jdbc:postgresql://HOST[:PORT]/DB}), or null. */
    static String storeHost(String url) {
        String prefix = "jdbc:postgresql://";
        if (url == null || !url.startsWith(prefix)) {
            return null;
        }
        String rest = url.substring(prefix.length());
        int end = rest.length();
        for (char stop : new char[] {'/', '?', ','}) {
            int i = rest.indexOf(stop);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        String hostPort = rest.substring(0, end);
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            return close > 0 ? hostPort.substring(1, close) : null;
        }
        int colon = hostPort.indexOf(':');
        return colon >= 0 ? hostPort.substring(0, colon) : hostPort;
    }

    private static Optional<String> refusal(String change, String nothing, Running r, String storeUrl, Set<String> forced,
                                            String instead) {
        Optional<String> never = unstoppable(r, storeUrl);
        if (never.isEmpty() && forced.contains(r.module())) {
            return Optional.empty();
        }
        return Optional.of(change + " would stop " + what(r) + "; refused, " + nothing + "; " + instead + "; "
                + never.orElse("to remove it all the same, name it: " + OVERRIDE + " " + r.module()));
    }

    /** What the module is to the mesh, in words. */
    private static String what(Running r) {
        return switch (r.module()) {
            case SeatCatalogue.STORE -> "the mesh's store (module " + r.module() + "), where the controller keeps every node,"
                    + " module and push";
            case SeatCatalogue.REGISTRY -> "the mesh's artifact store (module " + r.module() + "), which serves the"
                    + " bundles processes run from, the controller's included";
            case SeatCatalogue.CONTROLLER -> "the mesh's controller (module " + r.module() + "), which answers every verb";
            case StandbyPlan.MODULE -> "the seat's standby (module " + r.module() + "), the store's copy a promote makes the seat's";
            default -> StandbyPlan.isModule(r.module())
                    ? "a standby of the seat (module " + r.module() + "), a store's copy a promote can make the seat's"
                    : "node " + r.node() + "'s edge (module " + r.module() + "), serving " + r.routes() + " route"
                    + (r.routes() == 1 ? "" : "s");
        };
    }
}
