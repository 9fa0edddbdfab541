package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import mesh.model.Node;
import mesh.model.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ArtifactStoreCopiesTest {

    static final List<Node> NODES = List.of(new Node("n1", "10.0.0.1", null, null), new Node("n2", "10.0.0.2", null, null),
            new Node("n3", "10.0.0.3", null, null));

    static List<Placement> registryOn(String node) {
        return List.of(new Placement("mesh-store", "n1", "n1"), new Placement("mesh-registry", node, node), new Placement("app", "n3", "n3"));
    }

    static List<String> words(String list) {
        return list == null ? List.of() : Arrays.asList(list.split(" "));
    }

    @Test
    void anArtifactStoreThatRunsNowhereIsNotShown() {
        assertEquals(Optional.empty(), ArtifactStoreCopies.of(NODES, List.of(new Placement("mesh-registry", "n1", null)), List.of("n2")));
        assertEquals(Optional.empty(), ArtifactStoreCopies.of(NODES, List.of(new Placement("app", "n1", "n1")), List.of()));
    }

    @ParameterizedTest(name = "registry on {0}, standbys [{1}]: {2}")
    @CsvSource(delimiter = '|', value = {
            "n1||artifact store: mesh-registry on n1 (http://10.0.0.1:5000); its content (bundles, the controller's bundle, backups to it) is on n1 only",
            "n1|n2|artifact store: mesh-registry on n1 (http://10.0.0.1:5000); its content (bundles, the controller's bundle, backups to it) is on n1 only, not replicated to the standby n2: a promote will not find it while n1 is lost",
            "n1|n2 n3|artifact store: mesh-registry on n1 (http://10.0.0.1:5000); its content (bundles, the controller's bundle, backups to it) is on n1 only, not replicated to the standbys n2, n3: a promote will not find it while n1 is lost",
            // taken onto the standby itself: a promote of n2 finds it there
            "n2|n2|artifact store: mesh-registry on n2 (http://10.0.0.2:5000); its content (bundles, the controller's bundle, backups to it) is on n2 only",
    })
    void statusNamesWhereItRunsAndThatItsContentIsThereOnly(String node, String standbys, String said) {
        ArtifactStoreCopies.Where v = ArtifactStoreCopies.of(NODES, registryOn(node), words(standbys)).orElseThrow();
        assertEquals(node, v.node());
        assertEquals(List.of(), v.copiedTo(), "nothing copies the artifact store's content");
        assertEquals(said, v.words());
    }

    @ParameterizedTest(name = "registry on {0}, standbys [{1}], written to {2}: {3}")
    @CsvSource(delimiter = '|', value = {
            "n1|n2|http://10.0.0.1:5000|bundle b@sha256:ab stored on n1's artifact store only; a promote of n2 will not find it while n1 is lost (the artifact store is not replicated: docs/seat.md)",
            "n1|n2|http://10.0.0.1:5000/|bundle b@sha256:ab stored on n1's artifact store only; a promote of n2 will not find it while n1 is lost (the artifact store is not replicated: docs/seat.md)",
            "n1|n2 n3|http://10.0.0.1:5000|bundle b@sha256:ab stored on n1's artifact store only; a promote of n2 or n3 will not find it while n1 is lost (the artifact store is not replicated: docs/seat.md)",
            "n1||http://10.0.0.1:5000|",          // no standby: nothing to warn of
            "n1|n2|http://10.0.0.3:5000|",        // another registry (a backup registry of the module's own)
            "n2|n2|http://10.0.0.2:5000|",        // on the standby itself
    })
    void aVerbThatWroteThereOnlySaysSoWhileAStandbyExists(String node, String standbys, String registry, String line) {
        ArtifactStoreCopies.Where v = ArtifactStoreCopies.of(NODES, registryOn(node), words(standbys)).orElseThrow();
        assertEquals(Optional.ofNullable(line), ArtifactStoreCopies.onlyThere(v, registry, "bundle b@sha256:ab"));
    }

    @Test
    void nothingToSayWithoutAnArtifactStoreOrARegistry() {
        assertEquals(Optional.empty(), ArtifactStoreCopies.onlyThere(null, "http://10.0.0.1:5000", "x"));
        ArtifactStoreCopies.Where v = ArtifactStoreCopies.of(NODES, registryOn("n1"), List.of("n2")).orElseThrow();
        assertEquals(Optional.empty(), ArtifactStoreCopies.onlyThere(v, null, "x"));
    }
}
