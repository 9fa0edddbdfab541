package mesh.wire;

import java.util.List;

/**
 * PushRequest is the body of {@code POST /v1/mesh/push}; null fields mean none, false and false.
 * {@code forceRemoveMeshModules} names the mesh's own modules the push may remove all the same
 * ({@code --force-remove-mesh-module}, mesh.plan.MeshModules); absent means none. {@code only}: the named nodes
 * are sent alone, every other left as it runs even when its declaration differs (a rebuilt seat's first push,
 * {@code mesh install --from-backup}, which adopts the fleet); absent means false.
 */
public record PushRequest(List<String> nodes, Boolean dryRun, Boolean yes, List<String> forceRemoveMeshModules, Boolean only) {

    public PushRequest(List<String> nodes, Boolean dryRun, Boolean yes) {
        this(nodes, dryRun, yes, null, null);
    }

    public PushRequest(List<String> nodes, Boolean dryRun, Boolean yes, List<String> forceRemoveMeshModules) {
        this(nodes, dryRun, yes, forceRemoveMeshModules, null);
    }
}
