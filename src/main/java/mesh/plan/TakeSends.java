package mesh.plan;

import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.Node;

/**
 * TakeSends is what a take sends to a node outside a push, decided here and carried out by the controller's
 * sender, which records it as a push records what it sends: the target's start declaration
 * ({@link TakeStart#declaration}) and the edges told first at the switch ({@link EdgeFirst}). Each send
 * carries the content the store keeps as acknowledged once the node accepts it: the declaration without
 * its generation and without secret values, the form {@link PushDecision} compares the next plan with.
 */
public final class TakeSends {

    private TakeSends() {
    }

    /** Send is one declaration for one node, and its content as a push records it. */
    public record Send(Node node, Declaration declaration, String content) {
    }

    /** The target's start declaration as a send. */
    public static Send start(Node target, Declaration d) {
        return new Send(target, d, content(d));
    }

    /** An edge-first declaration as a send. */
    public static Send of(EdgeFirst.Send e) {
        return new Send(e.node(), e.declaration(), e.content());
    }

    /** The content a push records as acknowledged for {@code d}: generation 0, no secret values. */
    public static String content(Declaration d) {
        return DeclarationJson.write(new Declaration(d.node(), d.address(), 0, d.components(), d.registry(), d.edge())
                .withoutSecretValues());
    }
}
