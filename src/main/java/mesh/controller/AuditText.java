package mesh.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.wire.CatalogueChange;

/**
 * AuditText words what a write verb changed, for the audit trail ({@link AuditTrail}): pure
 * formatting of the before and after the verb already holds, so it is tested without a store. It
 * names nodes, modules, addresses and generations, never a token.
 */
final class AuditText {

    private AuditText() {
    }

    static String bootstrapMade(String name) {
        return "operator token " + name + " stored from the controller's MESH_CONTROLLER_TOKEN";
    }

    static String bootstrapReplaced(String name) {
        return "operator token " + name + " replaced: the controller's MESH_CONTROLLER_TOKEN changed";
    }

    static String tokenMade(String name) {
        return "operator token " + name + " made";
    }

    static String tokenRevoked(String name) {
        return "operator token " + name + " revoked";
    }

    /** A node added by an operator gets a join token; the seat's own node, added by its installer, none. */
    static String nodeAdded(Node n, boolean joinToken) {
        return "node " + n.name() + " added at " + n.address() + ", agent " + n.agent()
                + (joinToken ? ", with a new join token" : ", without a join token (its certificate is issued on the seat)");
    }

    /** Only what differs, each as "was → is"; "no change" when nothing does. */
    static String nodeSet(Node before, Node after) {
        List<String> changes = new ArrayList<>();
        change(changes, "address", before.address(), after.address());
        change(changes, "agent", before.agent(), after.agent());
        return "node " + after.name() + ": " + (changes.isEmpty() ? "no change" : String.join(", ", changes));
    }

    static String joinTokenMade(String node) {
        return "node " + node + ": new join token (the node's earlier one, if unspent, no longer works)";
    }

    static String nodeJoined(String node) {
        return "node " + node + " joined: its agent certificate issued, its join token spent";
    }

    static String publicDomain(String node, String before, String after) {
        List<String> changes = new ArrayList<>();
        change(changes, "public domain", before, after, "none");
        return "node " + node + ": " + (changes.isEmpty() ? "public domain " + after + " (no change)" : changes.get(0));
    }

    static String nodeRemoved(String node) {
        return "node " + node + " removed";
    }

    static String catalogue(CatalogueChange c) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : Map.of("added", c.added(), "updated", c.updated(),
                "unchanged", c.unchanged()).entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
            if (!e.getValue().isEmpty()) {
                parts.add(e.getKey() + " " + String.join(", ", e.getValue()));
            }
        }
        return "catalogue: " + String.join("; ", parts);
    }

    static String moduleRemoved(String module) {
        return "catalogue: removed " + module;
    }

    /** A placement before and after assign or unassign, each side that changed as "was → is". */
    static String placement(Placement before, Placement after) {
        List<String> changes = new ArrayList<>();
        change(changes, "assigned", before.assigned(), after.assigned());
        change(changes, "taken", before.taken(), after.taken());
        return "module " + after.module() + ": " + (changes.isEmpty() ? "no change" : String.join(", ", changes));
    }

    /** A push: each node sent and the generation it was sent. */
    static String push(Map<String, Long> sent) {
        List<String> nodes = new ArrayList<>();
        sent.forEach((node, generation) -> nodes.add(node + " generation " + generation));
        return "sent " + String.join(", ", nodes);
    }

    /** A rollback's push: the push it rolled back to, and each node sent (none when every node had it already). */
    static String rollback(long to, Map<String, Long> sent) {
        return "rolled back to push " + to + ": " + (sent.isEmpty() ? "sent nothing (every node runs it already)" : push(sent))
                + "; the catalogue and placements restored";
    }

    /** A take's push: as {@link #push(Map)}, naming the take (its module and epoch). */
    static String push(Map<String, Long> sent, String take, long epoch) {
        return push(sent) + " for the take of " + take + ", epoch " + epoch;
    }

    private static void change(List<String> changes, String what, String before, String after) {
        change(changes, what, before, after, "nowhere");
    }

    private static void change(List<String> changes, String what, String before, String after, String none) {
        if (!Objects.equals(before, after)) {
            changes.add(what + " " + (before == null ? none : before) + " → " + (after == null ? none : after));
        }
    }
}
