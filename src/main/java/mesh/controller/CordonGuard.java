package mesh.controller;

import java.sql.Connection;
import java.sql.SQLException;
import mesh.model.Conflict;
import mesh.plan.Cordons;
import mesh.store.NodeCordons;

/** CordonGuard refuses an assignment, take or restore onto a cordoned node ({@link Cordons}), in the caller's transaction. */
final class CordonGuard {

    private CordonGuard() {
    }

    /** Throws a {@link Conflict} naming {@code node} when it is cordoned and {@code module} is not {@code already} there. */
    static void refuse(Connection c, String verb, String module, String node, boolean already) throws SQLException {
        var why = Cordons.refusal(verb, module, node, already, NodeCordons.cordoned(c));
        if (why.isPresent()) {
            throw new Conflict(why.get());
        }
    }
}
