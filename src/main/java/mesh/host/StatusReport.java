package mesh.host;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mesh.model.ComponentSpec;
import mesh.model.ComponentState;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.SpecDigest;
import mesh.model.Vitals;
import mesh.plan.ComponentVerdict;
import mesh.wire.HostStatus;

/**
 * StatusReport makes the agent's answer to {@code GET /v1/status} from what it holds: the declaration and how far it
 * applied it, what the engine and the supervisor showed at its last pass over generation {@code judged}, the failures
 * kept, and the modules a take fences here. Each component's state is {@link ComponentVerdict}'s, decided as of
 * {@link #at}; a fenced module's components are {@link ComponentState#FENCED} (a take keeps them stopped). Named
 * setters, each with a default (nothing seen, nothing failed, nothing fenced), so a reader sees which value is which.
 */
final class StatusReport {

    private final String node;
    private Declaration declaration;
    private long applied;
    private boolean converged;
    private Instant lastPass;
    private List<ObservedContainer> observed = List.of();
    private Map<String, String> failures = Map.of();
    private Map<String, HostStatus.Process> processes = Map.of();
    private Map<String, Vitals> vitals = Map.of();
    private long judged;
    private Set<String> fenced = Set.of();

    private StatusReport(String node) {
        this.node = node;
    }

    /** The status of the agent of {@code node}. */
    static StatusReport of(String node) {
        return new StatusReport(node);
    }

    /** The declaration the agent holds (null: none yet). */
    StatusReport declaration(Declaration d) {
        this.declaration = d;
        return this;
    }

    /** The generation applied last. */
    StatusReport applied(long generation) {
        this.applied = generation;
        return this;
    }

    StatusReport converged(boolean converged) {
        this.converged = converged;
        return this;
    }

    /** When the last pass ended (null: none yet). */
    StatusReport lastPass(Instant at) {
        this.lastPass = at;
        return this;
    }

    /** The containers and processes the last pass saw. */
    StatusReport observed(List<ObservedContainer> observed) {
        this.observed = observed;
        return this;
    }

    /** Why a component's last apply failed, by name; {@link HostStatus#ENGINE} for the engine itself. */
    StatusReport failures(Map<String, String> failures) {
        this.failures = failures;
        return this;
    }

    /** What the supervisor says of each process, by name. */
    StatusReport processes(Map<String, HostStatus.Process> processes) {
        this.processes = processes;
        return this;
    }

    /** What the last pass saw of each component (health, restarts), by name. */
    StatusReport vitals(Map<String, Vitals> vitals) {
        this.vitals = vitals;
        return this;
    }

    /** The generation whose pass judged the components. */
    StatusReport judged(long generation) {
        this.judged = generation;
        return this;
    }

    /** The modules a take fences on this node. */
    StatusReport fenced(Set<String> modules) {
        this.fenced = modules;
        return this;
    }

    /** The status, its states decided as of {@code now}. */
    HostStatus at(Instant now) {
        Declaration d = declaration;
        List<HostStatus.Component> components = new ArrayList<>();
        if (d != null) {
            for (ComponentSpec c : d.components()) {
                components.add(component(d, c, now));
            }
        }
        return new HostStatus(node, d == null ? 0 : d.generation(), applied, converged,
                lastPass == null ? null : lastPass.toString(), failures.get(HostStatus.ENGINE), components, null,
                d == null ? 0 : judged);
    }

    private HostStatus.Component component(Declaration d, ComponentSpec c, Instant now) {
        ObservedContainer o = observed.stream().filter(x -> x.name().equals(c.name()) && x.process() == c.process())
                .findFirst().orElse(null);
        boolean outdated = o != null && !SpecDigest.changes(o, ContainerRequest.of(c, d.address())).isEmpty();
        Vitals v = vitals.get(c.name());
        String failure = failures.get(c.name());
        HostStatus.Process process = c.process() ? processes.get(c.name()) : null;
        if (fenced.contains(c.module())) {
            return new HostStatus.Component(c.name(), c.module(), ComponentState.FENCED, o == null ? null : o.digest(),
                    o == null ? null : o.id(), failure, process, "its module is fenced here by a take", null, null);
        }
        ComponentVerdict verdict = ComponentVerdict.judge(c, o != null, outdated, o != null && o.running(), v, failure, now);
        return new HostStatus.Component(c.name(), c.module(), verdict.state(), o == null ? null : o.digest(),
                o == null ? null : o.id(), failure, process, failure == null ? verdict.reason() : null,
                v == null ? null : v.restarts(), v == null ? null : v.lastExit());
    }
}
