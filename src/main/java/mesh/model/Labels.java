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

    public static Map<String, String> forContainer(String node, long generation, ComponentSpec c) {
        return Map.of(
                NODE, node,
                MODULE, c.module(),
                COMPONENT, c.name(),
                DIGEST, SpecDigest.of(c),
                SPEC, SpecDigest.canonical(SpecDigest.CURRENT_VERSION, c),
                GENERATION, Long.toString(generation));
    }

    public static Map<String, String> forVolume(String node, String module) {
        return Map.of(NODE, node, MODULE, module);
    }
}
