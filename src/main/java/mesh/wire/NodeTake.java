package mesh.wire;

/**
 * NodeTake is a take under way as {@code mesh status -o json} shows it on each node it involves (the
 * source and the target): which module, this node's part in it, where it goes, its epoch and the step
 * it stands at, whether a runner carries it out now, the copy's progress while it copies, and the
 * failure it rolls back from or the problem it waits on. It exists so that a script reading the status
 * sees a node that is half-way through a hand-off without a second call.
 *
 * @param role   {@code source} or {@code target}
 * @param step   the step to carry out next ({@code preflight} … {@code old-copy}, or a rollback's)
 * @param state  the take's state: {@code running} until it ends (a rolling-back take's step is a rollback's)
 * @param active a runner carries it out now (false: it waits for {@code mesh take NODE MODULE})
 */
public record NodeTake(String module, String role, String from, String to, long epoch, mesh.model.TakeStep step,
                       mesh.model.OperationState state, boolean active, TakeView.Progress copy, String error, String problem) {

    /** The take as the node {@code node} sees it. */
    public static NodeTake of(TakeView t, String node) {
        return new NodeTake(t.module(), node.equals(t.to()) ? "target" : "source", t.from(), t.to(), t.epoch(), t.step(),
                t.state(), t.active(), t.copy(), t.error(), t.problem());
    }
}
