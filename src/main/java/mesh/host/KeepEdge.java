package mesh.host;

import mesh.docker.Engine;
import mesh.host.edge.EdgeKeeper;

/**
 * KeepEdge loads the declaration's routes into this node's edge when they differ from what it serves:
 * one reload, no replace ({@link EdgeKeeper}, whose rule is {@code mesh.plan.EdgeReload}). It runs after
 * every pass and after every accepted push. Never throws. An agent built without an edge keeper keeps none.
 */
final class KeepEdge implements PassStep {

    private final EdgeKeeper edge;
    private final AgentState state;
    private final Engine engine;

    KeepEdge(EdgeKeeper edge, AgentState state, Engine engine) {
        this.edge = edge;
        this.state = state;
        this.engine = engine;
    }

    @Override
    public void run(Context pass) {
        keep(pass.declaration);
    }

    /** The same for a declaration just accepted. */
    void keep(mesh.model.Declaration d) {
        if (edge != null) {
            edge.keep(d, state.lastObserved, engine);
        }
    }
}
