package mesh.wire;

import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.SpecDigest;

/**
 * HostStatus is {@code GET /v1/status}: which generation the agent holds and has applied, each
 * declared component's state on the engine and, on an edge node, the edge's routes ({@link EdgeStatus}).
 */
public record HostStatus(String node, long generation, long appliedGeneration, boolean converged,
                         String lastPass, String engineError, List<Component> components, EdgeStatus edge) {

    /** A status without an edge. */
    public HostStatus(String node, long generation, long appliedGeneration, boolean converged,
                      String lastPass, String engineError, List<Component> components) {
        this(node, generation, appliedGeneration, converged, lastPass, engineError, components, null);
    }

    /** This status with the edge's part. */
    public HostStatus withEdge(EdgeStatus edge) {
        return new HostStatus(node, generation, appliedGeneration, converged, lastPass, engineError, components, edge);
    }

    /** The key under which the agent keeps a failure of the engine itself (not of one component). */
    public static final String ENGINE = "(engine)";

    /**
     * Component is one declared component: its state on the engine (or, for a process, the supervisor), with
     * its digest; {@code process} is what the supervisor says of a process, null for a container.
     */
    public record Component(String name, String module, ComponentState state, String digest, String containerId,
                            String error, Process process) {

        /** A container's status. */
        public Component(String name, String module, ComponentState state, String digest, String containerId, String error) {
            this(name, module, state, digest, containerId, error, null);
        }
    }

    /**
     * Process is a supervised process as its supervisor sees it: {@code state} running, restarting (ended, next
     * start at {@code nextStartAt}), failed (could not be launched) or exited (stopped on purpose); its pid (0
     * when none runs), how often it was restarted, and its last exit status ({@code exit 1}, {@code signal 9}) and when.
     */
    public record Process(String state, long pid, int restarts, String lastExit, String lastExitAt, String nextStartAt) {
    }

    /** ComponentState is where a declared component stands on the engine; in JSON, its lower-case name. */
    public enum ComponentState {
        RUNNING, STOPPED, MISSING, OUTDATED,
        /** Its module is fenced here by a take (docs/take.md): kept stopped whatever the declaration says. */
        FENCED;

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }

        @Override
        public String toString() {
            return json();
        }
    }

    public static HostStatus of(String node, Declaration d, long applied, boolean converged, Instant lastPass,
                         List<ObservedContainer> observed, Map<String, String> failures) {
        return of(node, d, applied, converged, lastPass, observed, failures, Map.of());
    }

    /** As above, with what the supervisor says of each process by component name. */
    public static HostStatus of(String node, Declaration d, long applied, boolean converged, Instant lastPass,
                         List<ObservedContainer> observed, Map<String, String> failures, Map<String, Process> processes) {
        return of(node, d, applied, converged, lastPass, observed, failures, processes, java.util.Set.of());
    }

    /** As above; the components of the {@code fenced} modules are in state "fenced". */
    public static HostStatus of(String node, Declaration d, long applied, boolean converged, Instant lastPass,
                         List<ObservedContainer> observed, Map<String, String> failures, Map<String, Process> processes,
                         java.util.Set<String> fenced) {
        List<Component> components = new ArrayList<>();
        if (d != null) {
            for (ComponentSpec c : d.components()) {
                ObservedContainer o = observed.stream().filter(x -> x.name().equals(c.name()) && x.process() == c.process())
                        .findFirst().orElse(null);
                ComponentState state = fenced.contains(c.module()) ? ComponentState.FENCED
                        : o == null ? ComponentState.MISSING
                        : !SpecDigest.changes(o, ContainerRequest.of(c, d.address())).isEmpty() ? ComponentState.OUTDATED
                        : o.running() ? ComponentState.RUNNING : ComponentState.STOPPED;
                components.add(new Component(c.name(), c.module(), state, o == null ? null : o.digest(),
                        o == null ? null : o.id(), failures.get(c.name()), c.process() ? processes.get(c.name()) : null));
            }
        }
        return new HostStatus(node, d == null ? 0 : d.generation(), applied, converged,
                lastPass == null ? null : lastPass.toString(), failures.get(ENGINE), components);
    }
}
