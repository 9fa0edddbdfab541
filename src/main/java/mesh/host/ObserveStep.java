package mesh.host;

import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import mesh.host.process.ProcessStatus;
import mesh.model.Declaration;

/**
 * ObserveStep looks at what runs (the engine's containers and the supervisor's processes) beside the
 * declaration, both without the fenced modules, and plans the difference ({@code HostDiff}); what it saw
 * is kept for the status. Its look is the pass's one question to the engine before any write: when it
 * answers, the engine is well again ({@code answered}, given when the pass began); when it throws, the pass is an engine failure.
 */
final class ObserveStep implements PassStep {

    private final Function<Declaration, HostIntake.Unfenced> unfenced;
    private final Supplier<List<ProcessStatus>> processes;
    private final AgentState state;
    private final Consumer<Instant> answered;

    ObserveStep(Function<Declaration, HostIntake.Unfenced> unfenced, Supplier<List<ProcessStatus>> processes,
                AgentState state, Consumer<Instant> answered) {
        this.unfenced = unfenced;
        this.processes = processes;
        this.state = state;
        this.answered = answered;
    }

    @Override
    public void run(Context pass) {
        HostIntake.Unfenced view = unfenced.apply(pass.declaration);
        state.saw(view.all(), view.fenced(), processes.get());
        pass.view = view;
        pass.plan = view.plan();
        answered.accept(pass.began);
    }
}
