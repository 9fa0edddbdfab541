package mesh.wire;

import java.util.List;

/**
 * ArtifactStoreView is where the mesh's artifact store runs and where its content exists (docs/seat.md, "The artifact
 * store and the standby"), in {@code mesh status} (on the node that runs it, and beside the seats): the module
 * ({@code mesh-registry}), the node it runs on, its URL, the other nodes that hold a copy of its content (bundles, the
 * controller's own bundle, backups to it: none, it is not replicated), the standbys a promote would make the seat, and
 * the words {@code mesh status} prints.
 */
public record ArtifactStoreView(String module, String node, String url, List<String> copiedTo, List<String> standbys, String words) {

    public ArtifactStoreView {
        copiedTo = copiedTo == null ? List.of() : List.copyOf(copiedTo);
        standbys = standbys == null ? List.of() : List.copyOf(standbys);
    }
}
