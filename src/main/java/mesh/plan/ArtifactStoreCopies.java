package mesh.plan;

import java.util.List;
import java.util.Optional;
import mesh.model.Node;
import mesh.model.Placement;

/**
 * ArtifactStoreCopies says where the mesh's artifact store ({@code mesh-registry}) runs and whether its content exists
 * anywhere else (docs/seat.md, "The artifact store and the standby"). Only the store is replicated to a standby seat;
 * the artifact store's content (bundles, the controller's own bundle, backups to it) lives on the one node that runs
 * it, so a promote of a standby does not find what only that node held. {@link #of} is what {@code mesh status} shows;
 * {@link #onlyThere} is the one line a verb that wrote there prints while a standby exists.
 */
public final class ArtifactStoreCopies {

    private ArtifactStoreCopies() {
    }

    /**
     * Where the artifact store runs: its node and URL, the nodes that hold a copy of its content (none: nothing copies it),
     * the standbys of the seat, and the words {@code mesh status} prints.
     */
    public record Where(String node, String url, List<String> copiedTo, List<String> standbys, String words) {

        public Where {
            copiedTo = List.copyOf(copiedTo);
            standbys = List.copyOf(standbys);
        }
    }

    /** The artifact store as the placements place it, with the standbys of the seat; empty when it runs nowhere. */
    public static Optional<Where> of(List<Node> nodes, List<Placement> placements, List<String> standbys) {
        String url = MeshPlanner.registryUrl(nodes, placements);
        Optional<String> node = placements.stream().filter(p -> MeshPlanner.REGISTRY_MODULE.equals(p.module()) && p.taken() != null)
                .map(Placement::taken).findFirst();
        if (url == null || node.isEmpty()) {
            return Optional.empty();
        }
        String n = node.get();
        List<String> away = standbys.stream().filter(s -> !s.equals(n)).toList();
        String words = "artifact store: " + MeshPlanner.REGISTRY_MODULE + " on " + n + " (" + url + "); its content (bundles, the "
                + "controller's bundle, backups to it) is on " + n + " only" + (away.isEmpty() ? ""
                : ", not replicated to the " + (away.size() == 1 ? "standby " : "standbys ") + String.join(", ", away)
                + ": a promote will not find it while " + n + " is lost");
        return Optional.of(new Where(n, url, List.of(), standbys, words));
    }

    /**
     * The line a verb that wrote {@code what} to {@code registry} prints: when that registry is the artifact store, and the
     * seat has a standby that does not hold its content; empty otherwise (another registry, or no standby).
     */
    public static Optional<String> onlyThere(Where store, String registry, String what) {
        if (store == null || registry == null || !store.url().equals(registry.replaceAll("/+$", ""))) {
            return Optional.empty();
        }
        List<String> away = store.standbys().stream().filter(s -> !s.equals(store.node()) && !store.copiedTo().contains(s)).toList();
        if (away.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(what + " stored on " + store.node() + "'s artifact store only; a promote of " + String.join(" or ", away)
                + " will not find it while " + store.node() + " is lost (the artifact store is not replicated: docs/seat.md)");
    }
}
