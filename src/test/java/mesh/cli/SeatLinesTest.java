package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.wire.SeatsView;
import org.junit.jupiter.api.Test;

class SeatLinesTest {

    @Test
    void aMeshWithoutAStandbyGetsNoSeatLines() {
        assertEquals(List.of(), SeatLines.of(null));
        assertEquals(List.of(), SeatLines.of(new SeatsView("ace", 7, List.of())));
    }

    @Test
    void statusShowsTheSeatAndEachStandbyWithItsLag() {
        SeatsView v = new SeatsView("ace", 7, List.of(
                new SeatsView.Standby("n2", "IN_SYNC", true, 0, null, "standby n2: in sync, synchronous"),
                new SeatsView.Standby("n3", "AWAY", false, -1, "2026-12-06T01:59:30Z",
                        "standby n3: not in sync since 2026-12-06T01:59:30Z (not connected to the seat); the seat commits without it until it is back in sync")));
        assertEquals(List.of("seat ace at epoch 7, 2 standbys",
                "standby n2: in sync, synchronous (lag 0 B)",
                "standby n3: not in sync since 2026-12-06T01:59:30Z (not connected to the seat); the seat commits without it until it is back in sync"),
                SeatLines.of(v));
    }

    @Test
    void statusSaysWhereTheArtifactStoreRunsAfterTheStandbys() {
        String words = "artifact store: mesh-registry on ace (http://10.0.0.1:5000); its content (bundles, the controller's bundle, "
                + "backups to it) is on ace only, not replicated to the standby n2: a promote will not find it while ace is lost";
        SeatsView v = new SeatsView("ace", 7, List.of(new SeatsView.Standby("n2", "IN_SYNC", true, 0, null, "standby n2: in sync, synchronous")),
                new mesh.wire.ArtifactStoreView("mesh-registry", "ace", "http://10.0.0.1:5000", List.of(), List.of("n2"), words));
        assertEquals(List.of("seat ace at epoch 7, 1 standby", "standby n2: in sync, synchronous (lag 0 B)", words), SeatLines.of(v));
    }

    @Test
    void withoutAStandbyTheArtifactStoreIsNamedOnlyWhenItIsNotOnTheSeat() {
        String words = "artifact store: mesh-registry on n1 (http://10.0.0.1:5000); its content (bundles, the controller's bundle, "
                + "backups to it) is on n1 only";
        mesh.wire.ArtifactStoreView onN1 = new mesh.wire.ArtifactStoreView("mesh-registry", "n1", "http://10.0.0.1:5000", List.of(), List.of(), words);
        assertEquals(List.of(), SeatLines.of(new SeatsView("n1", 7, List.of(), onN1)));
        assertEquals(List.of(), SeatLines.of(new SeatsView("", 0, List.of(), onN1)), "a mesh that names no seat");
        assertEquals(List.of(words), SeatLines.of(new SeatsView("n2", 9, List.of(), onN1)), "a promoted seat n2, its artifact store left on n1");
    }
}
