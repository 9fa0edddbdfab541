package mesh.controller;

import mesh.wire.CallFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import mesh.model.Conflict;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.store.MeshStore;
import mesh.wire.EdgeCa;

/**
 * MeshEdge answers the operator's questions about a node's edge that only its agent can answer
 * ({@code mesh route ca NODE}). The store is read and closed before the agent is asked, briefly.
 */
@ApplicationScoped
public class MeshEdge {

    @Inject
    MeshStore store;

    @Inject
    AgentClient agents;

    /** The root certificate of the node's edge CA, from its agent. */
    public EdgeCa ca(String name) {
        Node node = store.inTransaction(c -> store.node(c, name).orElseThrow(() -> new NotFound("unknown node " + name
                + "; 'mesh node list' shows the nodes")));
        if (node.publicDomain() == null) {
            throw new Conflict("node " + name + " has no public domain, so it runs no edge;"
                    + " 'mesh node public-domain " + name + " DOMAIN' gives it one");
        }
        try {
            return agents.edgeCa(node);
        } catch (CallFailure e) {
            throw new Conflict("node " + name + "'s edge CA: " + e.getMessage());
        }
    }
}
