package mesh.wire;

import java.time.Instant;
import java.util.List;
import mesh.model.ComponentState;

/**
 * HostStatus is {@code GET /v1/status}: which generation the agent holds and has applied, each
 * declared component's state on the engine and, on an edge node, the edge's routes ({@link EdgeStatus}).
 * {@code certificateNotAfter} is when the certificate the agent serves HTTPS with expires (an instant,
 * {@code 2027-11-30T12:00:00Z}), so {@code mesh status} can warn before it does (docs/trust.md); null
 * from an agent serving plain HTTP, and from an agent older than the field (it is optional on the wire).
 * {@code build} is the agent's own ({@link Build}); null from an agent older than the field. {@code disks} is the free
 * space where the node's volumes live ({@link Disk}); empty from an agent older than the field.
 */
public record HostStatus(String node, long generation, long appliedGeneration, boolean converged,
                         String lastPass, String engineError, List<Component> components, EdgeStatus edge,
                         long judgedGeneration, String certificateNotAfter, Build build, List<Disk> disks) {

    public HostStatus {
        disks = disks == null ? List.of() : List.copyOf(disks);
    }

    /** A place where volumes live ({@code engine}: the engine's data root; {@code state}: the agent's state dir): free bytes and size. */
    public record Disk(String place, long free, long size) {
    }

    /** A status that names no disk (an agent older than the field, or a test's). */
    public HostStatus(String node, long generation, long appliedGeneration, boolean converged,
                      String lastPass, String engineError, List<Component> components, EdgeStatus edge,
                      long judgedGeneration, String certificateNotAfter, Build build) {
        this(node, generation, appliedGeneration, converged, lastPass, engineError, components, edge, judgedGeneration,
                certificateNotAfter, build, List.of());
    }

    /** A status that names no build (an agent older than the field, or a test's). */
    public HostStatus(String node, long generation, long appliedGeneration, boolean converged,
                      String lastPass, String engineError, List<Component> components, EdgeStatus edge,
                      long judgedGeneration, String certificateNotAfter) {
        this(node, generation, appliedGeneration, converged, lastPass, engineError, components, edge, judgedGeneration,
                certificateNotAfter, null);
    }

    /** A status without its certificate's expiry (plain HTTP). */
    public HostStatus(String node, long generation, long appliedGeneration, boolean converged,
                      String lastPass, String engineError, List<Component> components, EdgeStatus edge,
                      long judgedGeneration) {
        this(node, generation, appliedGeneration, converged, lastPass, engineError, components, edge, judgedGeneration, null);
    }

    /** A status whose components' states were judged against its own generation. */
    public HostStatus(String node, long generation, long appliedGeneration, boolean converged,
                      String lastPass, String engineError, List<Component> components, EdgeStatus edge) {
        this(node, generation, appliedGeneration, converged, lastPass, engineError, components, edge, generation);
    }

    /** A status without an edge. */
    public HostStatus(String node, long generation, long appliedGeneration, boolean converged,
                      String lastPass, String engineError, List<Component> components) {
        this(node, generation, appliedGeneration, converged, lastPass, engineError, components, null);
    }

    /** This status with the edge's part. */
    public HostStatus withEdge(EdgeStatus edge) {
        return new HostStatus(node, generation, appliedGeneration, converged, lastPass, engineError, components, edge,
                judgedGeneration, certificateNotAfter, build, disks);
    }

    /** This status with the expiry of the agent's certificate, null when it serves plain HTTP. */
    public HostStatus withCertificateNotAfter(Instant notAfter) {
        return new HostStatus(node, generation, appliedGeneration, converged, lastPass, engineError, components, edge,
                judgedGeneration, notAfter == null ? null : notAfter.toString(), build, disks);
    }

    /** This status naming the build of the agent that answers it. */
    public HostStatus withBuild(Build build) {
        return new HostStatus(node, generation, appliedGeneration, converged, lastPass, engineError, components, edge,
                judgedGeneration, certificateNotAfter, build, disks);
    }

    /** This status with the free space where the node's volumes live. */
    public HostStatus withDisks(List<Disk> disks) {
        return new HostStatus(node, generation, appliedGeneration, converged, lastPass, engineError, components, edge,
                judgedGeneration, certificateNotAfter, build, disks);
    }

    /** The key under which the agent keeps a failure of the engine itself (not of one component). */
    public static final String ENGINE = "(engine)";

    /**
     * Component is one declared component: its state on the engine (or, for a process, the supervisor), with
     * its digest; {@code process} is what the supervisor says of a process, null for a container.
     * {@code error} is why its last apply failed; {@code reason} why it is in its state otherwise (a health
     * check's answer, a crash loop's count); {@code restarts} and {@code lastExit} as its engine or supervisor
     * counts them (null when not looked at).
     */
    public record Component(String name, String module, ComponentState state, String digest, String containerId,
                            String error, Process process, String reason, Integer restarts, String lastExit) {

        /** A container's status. */
        public Component(String name, String module, ComponentState state, String digest, String containerId, String error) {
            this(name, module, state, digest, containerId, error, null, null, null, null);
        }

        /** Why it is not running, in words: its error, else its reason, else nothing. */
        public String why() {
            return error != null ? error : reason;
        }
    }

    /**
     * Process is a supervised process as its supervisor sees it: {@code state} running, restarting (ended, next
     * start at {@code nextStartAt}), failed (could not be launched) or exited (stopped on purpose); its pid (0
     * when none runs), how often it was restarted, and its last exit status ({@code exit 1}, {@code signal 9}) and when.
     */
    public record Process(mesh.model.ProcessState state, long pid, int restarts, String lastExit, String lastExitAt, String nextStartAt) {
    }
}
