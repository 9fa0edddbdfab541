package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import mesh.plan.MeshPlan.RosterEntry;
import org.junit.jupiter.api.Test;

/** BundleCommandTest: without --registry, the artifact store is where the roster puts mesh-registry.internal. */
class BundleCommandTest {

    @Test
    void theRosterNamesTheArtifactStore() {
        List<RosterEntry> roster = List.of(
                new RosterEntry("mesh-store.internal", "10.77.0.11", "n1", "mesh-store", "internal"),
                new RosterEntry("mesh-registry.internal", "10.77.0.12", "n2", "mesh-registry", "internal"));
        assertEquals(Optional.of("http://10.77.0.12:5000"), BundleCommand.fromRoster(roster));
    }

    @Test
    void aRosterWithoutTheRegistryNamesNone() {
        assertEquals(Optional.empty(), BundleCommand.fromRoster(
                List.of(new RosterEntry("registry.novox.be", "10.77.0.12", "n2", "mesh-registry", "route"))));
    }
}
