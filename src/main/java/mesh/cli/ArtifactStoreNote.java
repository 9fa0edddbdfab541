package mesh.cli;

import java.util.Optional;
import mesh.client.ControllerApi;
import mesh.plan.ArtifactStoreCopies;
import mesh.wire.ArtifactStoreView;
import mesh.wire.SeatsView;

/**
 * ArtifactStoreNote is the one line a verb that wrote to the mesh's artifact store prints on stderr while the seat has a
 * standby that does not hold the artifact store's content (docs/seat.md, "The artifact store and the standby"), e.g.
 * {@code mesh: bundle tools/x@sha256:… stored on n1's artifact store only; a promote of n2 will not find it …}. Nothing
 * when the controller does not say where the artifact store runs (an older one, or none at MESH_CONTROLLER).
 */
final class ArtifactStoreNote {

    private ArtifactStoreNote() {
    }

    static Optional<String> of(ControllerClient controller, String registry, String what) {
        SeatsView seats;
        try {
            seats = controller.optional(ControllerApi::seats, null);
        } catch (RuntimeException e) {
            return Optional.empty();   // the write is done; a look that fails must not make the verb fail
        }
        return seats == null || seats.artifactStore() == null ? Optional.empty()
                : ArtifactStoreCopies.onlyThere(where(seats.artifactStore()), registry, what).map(l -> "mesh: " + l);
    }

    static ArtifactStoreCopies.Where where(ArtifactStoreView v) {
        return new ArtifactStoreCopies.Where(v.node(), v.url(), v.copiedTo(), v.standbys(), v.words());
    }
}
