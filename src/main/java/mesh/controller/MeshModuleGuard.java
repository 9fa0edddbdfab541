package mesh.controller;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import mesh.model.Conflict;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.plan.EdgePlan;
import mesh.plan.MeshModules;
import mesh.plan.MeshPlan;
import mesh.store.MeshStore;

/**
 * MeshModuleGuard gathers, in the caller's store transaction, where the mesh's own modules run
 * ({@link MeshModules.Running}: a module's node as taken, and an edge's routes as of the last push's
 * roster) and throws the refusal {@link MeshModules} decides, as a {@link Conflict}, before the verb
 * changes anything. The edge runs on every node with routes whether or not it is placed there, so it
 * is found by the roster, not by placement.
 */
final class MeshModuleGuard {

    private MeshModuleGuard() {
    }

    /** Where {@code module} runs now, or null when nowhere (or not one of the mesh's modules). */
    static MeshModules.Running running(MeshStore store, Connection c, String module) throws SQLException {
        if (!MeshModules.isMeshModule(module)) {
            return null;
        }
        Placement p = store.placements(c).stream().filter(x -> x.module().equals(module)).findFirst().orElse(null);
        Map<String, Long> routes = routes(store, c);
        if ((p == null || p.taken() == null) && EdgePlan.MODULE.equals(module)) {
            // the edge runs, unplaced, on every node that serves routes: the first of them stands for all
            String n = routes.keySet().stream().sorted().findFirst().orElse(null);
            return n == null ? null : new MeshModules.Running(module, n, address(store, c, n), routes.get(n).intValue());
        }
        if (p == null || p.taken() == null) {
            return null;
        }
        return new MeshModules.Running(module, p.taken(), address(store, c, p.taken()), routes.getOrDefault(p.taken(), 0L)
                .intValue());
    }

    /** The mesh's modules that run on {@code node} now: those taken there, and its edge when it serves routes. */
    static List<MeshModules.Running> runningOn(MeshStore store, Connection c, String node) throws SQLException {
        List<MeshModules.Running> there = new ArrayList<>();
        String address = address(store, c, node);
        int routes = routes(store, c).getOrDefault(node, 0L).intValue();
        for (Placement p : store.placements(c)) {
            if (node.equals(p.taken()) && MeshModules.isMeshModule(p.module())) {
                there.add(new MeshModules.Running(p.module(), node, address, routes));
            }
        }
        if (routes > 0 && there.stream().noneMatch(r -> r.module().equals(EdgePlan.MODULE))) {
            there.add(new MeshModules.Running(EdgePlan.MODULE, node, address, routes));
        }
        return there;
    }

    /** The refusal of {@code mesh unassign NODE MODULE}, if it would stop one of the mesh's modules. */
    static void unassign(MeshStore store, Connection c, String node, String module, String storeUrl, Set<String> forced)
            throws SQLException {
        MeshModules.unassign(node, running(store, c, module), storeUrl, forced).ifPresent(m -> {
            throw new Conflict(m);
        });
    }

    /** The refusal of {@code mesh catalogue remove MODULE} while it runs, if it is one of the mesh's modules. */
    static void catalogueRemove(MeshStore store, Connection c, String module) throws SQLException {
        MeshModules.catalogueRemove(running(store, c, module)).ifPresent(m -> {
            throw new Conflict(m);
        });
    }

    /** The refusal of {@code mesh node remove NODE} while one of the mesh's modules runs there. */
    static void nodeRemove(MeshStore store, Connection c, String node) throws SQLException {
        MeshModules.nodeRemove(node, runningOn(store, c, node)).ifPresent(m -> {
            throw new Conflict(m);
        });
    }

    /** The nodes' mesh addresses by name. */
    static Map<String, String> addresses(List<Node> nodes) {
        return nodes.stream().collect(Collectors.toMap(Node::name, Node::address));
    }

    private static String address(MeshStore store, Connection c, String node) throws SQLException {
        return store.node(c, node).map(Node::address).orElse(null);
    }

    /** How many routed names each edge node serves, as of the last push's roster. */
    private static Map<String, Long> routes(MeshStore store, Connection c) throws SQLException {
        return store.roster(c).stream().filter(e -> EdgePlan.ROUTE.equals(e.kind()))
                .collect(Collectors.groupingBy(MeshPlan.RosterEntry::node, Collectors.counting()));
    }
}
