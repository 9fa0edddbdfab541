package mesh.wire;

import java.util.List;

/**
 * PushRequest is the body of {@code POST /v1/mesh/push}; null fields mean none, false and false.
 * {@code forceRemoveMeshModules} names the mesh's own modules the push may remove all the same
 * ({@code --force-remove-mesh-module}, mesh.plan.MeshModules); absent means none.
 */
public record PushRequest(List<String> nodes, Boolean dryRun, Boolean yes, List<String> forceRemoveMeshModules) {

    public PushRequest(List<String> nodes, Boolean dryRun, Boolean yes) {
        this(nodes, dryRun, yes, null);
    }
}
