package mesh.wire;

/**
 * NodeView is a node as {@code node list} ({@code GET /v1/mesh/nodes}) shows it, with where its pushes stand and
 * the build its agent last reported ({@code agentBuild}, null until the controller has heard it say), and whether it is
 * cordoned ({@code mesh node cordon}: nothing new goes onto it).
 */
public record NodeView(String name, String address, String agent, String publicDomain, long generation,
                       long ackedGeneration, String lastError, Build agentBuild, Boolean cordoned) {

    /** Absent (a controller older than the field, or not cordoned: the mapper leaves false out) is not cordoned. */
    public NodeView {
        cordoned = Boolean.TRUE.equals(cordoned);
    }

    /** A node that is not cordoned. */
    public NodeView(String name, String address, String agent, String publicDomain, long generation,
                    long ackedGeneration, String lastError, Build agentBuild) {
        this(name, address, agent, publicDomain, generation, ackedGeneration, lastError, agentBuild, false);
    }

    /** A node whose agent's build is not known. */
    public NodeView(String name, String address, String agent, String publicDomain, long generation,
                    long ackedGeneration, String lastError) {
        this(name, address, agent, publicDomain, generation, ackedGeneration, lastError, null);
    }
}
