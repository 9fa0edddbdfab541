package mesh.host;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import mesh.host.process.ProcessStatus;
import mesh.model.Declaration;
import mesh.plan.HostPlan;
import org.jboss.logging.Logger;

/**
 * Acceptance is what the agent does with a pushed declaration once {@link HostIntake} has checked and
 * recorded it: it becomes the declaration kept, one look says what it changes (the push's answer), and
 * the loop is woken to apply it; when it changes nothing and no pass runs, it is applied as it is (a pass running may
 * still change what runs toward an older generation: then the answer waits, a few seconds at most, for the pass after
 * it to find the engine matching, so a push the engine already matches is answered applied either way). The
 * edge gets its routes at once. At start, the newest record is the declaration kept ({@link #resume}), and the start
 * hold is armed ({@link StartGate}): each declaration accepted lets it go.
 */
final class Acceptance {

    /** How long a push the engine already matches waits for the pass in flight, and the one after it, to say so. */
    static final Duration PASS_IN_FLIGHT = Duration.ofSeconds(5);

    private final HostIntake intake;
    private final AgentState state;
    private final HostLoop loop;
    private final KeepEdge edge;
    private final Supplier<List<ProcessStatus>> processes;
    private final Logger log;
    private final StartGate gate;

    /** {@code gate}: the start hold, armed when the agent resumes and let go by each declaration accepted. */
    Acceptance(HostIntake intake, AgentState state, HostLoop loop, KeepEdge edge, Supplier<List<ProcessStatus>> processes,
               Logger log, StartGate gate) {
        this.gate = gate;
        this.intake = intake;
        this.state = state;
        this.loop = loop;
        this.edge = edge;
        this.processes = processes;
        this.log = log;
    }

    /** Keeps the newest record, if any, as the declaration to converge to (after a restart: nothing replaced that matches). */
    void resume() {
        DeclarationRecords records = intake.records();
        state.desired = records.latest().map(DeclarationRecord::declaration).orElse(null);
        log.infof(state.desired == null ? "no declaration recorded in %s yet; waiting for a push"
                : "resuming from the record of generation %2$d in %1$s", records.dir(),
                state.desired == null ? 0 : state.desired.generation());
        gate.arm(state.desired != null, "the agent starts");
    }

    Optional<HostPlan> accept(Declaration d) {
        intake.accept(d, state::desire);
        gate.heard();
        try {
            HostIntake.Unfenced view = intake.unfenced(d);
            state.saw(view.all(), view.fenced(), processes.get());
            HostPlan plan = view.plan();
            log.infof("accepted generation %d, %s: %s", d.generation(),
                    d.push() == null ? "its push not named" : d.push().words(), plan.summary());
            boolean passInFlight = state.passing;
            if (plan.isEmpty() && !passInFlight) {
                state.markApplied(d, true);   // the engine already matches: nothing for a pass to do
            } else {
                loop.wake();
            }
            edge.keep(d);
            if (plan.isEmpty() && passInFlight) {
                // a pass over an older generation was running, and may still change what runs: not applied yet; the
                // pass the wake brings after it finds the engine matching, so the answer waits for it (a few seconds at most)
                try {
                    state.awaitApplied(d.generation(), PASS_IN_FLIGHT);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();   // answered as it stands: the push asks the status after
                }
            }
            return Optional.of(plan);
        } catch (RuntimeException e) {
            loop.wake();
            // Recorded and held: the loop applies it when the engine answers. Say so rather than fail the push.
            log.warnf("accepted generation %d; the engine did not answer: %s", d.generation(), e.getMessage());
            return Optional.empty();
        }
    }
}
