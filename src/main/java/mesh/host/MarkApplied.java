package mesh.host;

/**
 * MarkApplied records what the pass achieved for its declaration: applied (the engine matched it after the
 * apply) or not yet. A push accepted meanwhile makes this pass's outcome moot ({@link AgentState#markApplied}).
 */
final class MarkApplied implements PassStep {

    private final AgentState state;

    MarkApplied(AgentState state) {
        this.state = state;
    }

    @Override
    public void run(Context pass) {
        state.markApplied(pass.declaration, pass.done);
    }
}
