package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.EdgeTable;
import mesh.model.Node;

/**
 * EdgeFirst decides which edges a take tells first, right after its switch: each node whose acknowledged
 * declaration has an edge whose routes the plan changes (the taken module's routes now proxy to the
 * target), and nothing else about its edge. That node is sent its acknowledged declaration with only the
 * new route table, before the ordinary push that replaces the binders. It exists because an agent loads
 * its edge's routes at the end of its pass, after it has replaced containers: a node that both serves a
 * route of the module and runs one of its binders would otherwise keep proxying to the stopped source
 * until its binder was stopped, started and healthy again. The module already runs healthy on the target
 * when this is sent (the start step came before the switch), so the new upstream answers.
 *
 * <p>An edge that is created, removed, or changes its component or TLS is left to the ordinary push: only a
 * reload of routes goes first. Pure: the caller sends, records and waits.
 */
public final class EdgeFirst {

    /** Send is one node's edge-only declaration, and its content as a push records it (generation 0). */
    public record Send(Node node, Declaration declaration, String content) {
    }

    private EdgeFirst() {
    }

    /** The edge-only declarations to send before the push, in node order. */
    public static List<Send> sends(MeshPlan plan, List<PushDecision.Sent> sent) {
        List<Send> sends = new ArrayList<>();
        for (PushDecision.Sent s : sent) {
            Declaration acked = acked(s);
            EdgeTable planned = plan.edges().get(s.node().name());
            if (acked == null || acked.edge() == null || planned == null || acked.edge().equals(planned)
                    || !Objects.equals(acked.edge().component(), planned.component())
                    || !Objects.equals(acked.edge().tls(), planned.tls())) {
                continue;
            }
            ComponentSpec edgeNow = component(acked.components(), planned.component());
            ComponentSpec edgeNext = component(plan.nodes().getOrDefault(s.node().name(), List.of()), planned.component());
            if (edgeNow == null || !edgeNow.equals(edgeNext)) {
                continue;
            }
            Declaration d = new Declaration(acked.node(), acked.address(), s.lastGeneration() + 1, acked.components(),
                    acked.registry(), planned);
            sends.add(new Send(s.node(), d, TakeSends.content(d)));
        }
        return sends;
    }

    private static Declaration acked(PushDecision.Sent s) {
        if (s.ackedGeneration() <= 0 || s.ackedDeclaration() == null) {
            return null;
        }
        try {
            return DeclarationJson.MAPPER.readValue(s.ackedDeclaration(), Declaration.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;   // unreadable: the ordinary push sends this node its whole declaration
        }
    }

    private static ComponentSpec component(List<ComponentSpec> components, String name) {
        return components.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
    }
}
