package mesh.model;

import java.util.Map;

/**
 * Labels are the mesh's marks on a container: ownership (node), grouping (module), identity
 * (digest and the canonical spec it hashes) and provenance (generation).
 */
public final class Labels {
    public static final String NODE = "mesh.node";
    public static final String MODULE = "mesh.module";
    public static final String COMPONENT = "mesh.component";
    public static final String DIGEST = "mesh.digest";
    public static final String SPEC = "mesh.spec";
    public static final String GENERATION = "mesh.generation";

    private Labels() {
    }

    /** The labels of a container made from {@code request} (its own labels are not digested). */
    public static Map<String, String> forContainer(String node, long generation, ContainerRequest request) {
        return Map.of(
                NODE, node,
                MODULE, request.module(),
                COMPONENT, request.name(),
                DIGEST, SpecDigest.of(request),
                SPEC, SpecDigest.canonical(SpecDigest.CURRENT_VERSION, request),
                GENERATION, Long.toString(generation));
    }

    public static Map<String, String> forVolume(String node, String module) {
        return Map.of(NODE, node, MODULE, module);
    }
}
