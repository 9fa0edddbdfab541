package mesh.host;

import mesh.docker.Engine;
import mesh.host.edge.EdgeKeeper;

/**
 * KeepEdge loads the declaration's routes into this node's edge when they differ from what it serves:
 * one reload, no replace ({@link EdgeKeeper}, whose rule is {@code mesh.plan.EdgeReload}). It runs after
 * every pass and after every accepted push. Never throws. An agent built without an edge keeper keeps none.
 */
final class KeepEdge implements PassStep, CutoverEdge {

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

    /** Whether this agent keeps an edge, so a cutover can point it at a new copy. */
    boolean keeps() {
        return edge != null;
    }

    @Override
    public String pin(mesh.model.Declaration d, java.util.Map<String, mesh.plan.Cutover.Pin> pins) {
        return edge == null ? "this agent keeps no edge" : edge.pin(d, state.lastObserved, engine, pins);
    }

    @Override
    public void unpin(mesh.model.Declaration d, java.util.Set<String> keys) {
        if (edge != null) {
            edge.unpin(d, state.lastObserved, engine, keys);
        }
    }
}
