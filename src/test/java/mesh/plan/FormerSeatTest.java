package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mesh.model.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FormerSeatTest {

    /** A promoted mesh: n1 the deposed seat (store, registry, controller), n2 the new seat (its store is mesh-standby). */
    static final List<Placement> PROMOTED = List.of(new Placement("mesh-store", "n1", "n1"),
            new Placement("mesh-registry", "n1", "n1"), new Placement("mesh-controller", "n1", "n1"),
            new Placement("mesh-standby", "n2", "n2"), new Placement("app", "n3", "n3"));

    @ParameterizedTest(name = "{0} on the mesh of seat {1}: lets go [{2}]")
    @CsvSource(delimiter = '|', value = {
            "n1|n2|mesh-controller mesh-store",   // the deposed seat: its store and its controller, not its registry
            "n2|n2|",                             // the seat itself is never a former seat
            "n3|n2|",                             // a node that never was the seat
            "n1|n1|",                             // a mesh never promoted: the seat adds a standby as before
    })
    void aFormerSeatIsANodeHoldingTheSeatsModulesThatIsNotTheSeat(String node, String seat, String letGo) {
        List<String> expected = letGo == null ? List.of() : Arrays.asList(letGo.split(" "));
        assertEquals(expected, FormerSeat.held(node, seat, PROMOTED));
    }

    @Test
    void aSeatModuleOnlyAssignedOrOnlyTakenThereCountsToo() {
        List<Placement> half = List.of(new Placement("mesh-store", null, "n1"), new Placement("mesh-controller", "n1", null));
        assertEquals(List.of("mesh-controller", "mesh-store"), FormerSeat.held("n1", "n2", half));
    }

    @ParameterizedTest(name = "{0} on the mesh of seat {1}, running [{2}]: lets the seat's modules go {3}")
    @CsvSource(delimiter = '|', value = {
            "n1|n2|mesh-store mesh-registry mesh-controller app|true",
            "n1|n2|mesh-controller|true",       // a seat add cut short: placements let go, the store removed, not the controller
            "n1|n2|mesh-registry app|false",    // the registry is no seat module: it may stay on the old seat
            "n2|n2|mesh-store mesh-controller|false",
            "n3|n2||false",                     // acknowledged nothing
    })
    void aNodeStillRunningTheSeatsModulesHasThemLetGoByItsPush(String node, String seat, String running, boolean letGo) {
        assertEquals(letGo, FormerSeat.stillRuns(node, seat, running == null ? List.of() : Arrays.asList(running.split(" "))));
    }

    @ParameterizedTest(name = "{0} let go from {1}: assigned {2}, taken {3}")
    @CsvSource(delimiter = '|', value = {
            "n1,n1|n1|,",
            "n1,n3|n1|,n3",     // taken elsewhere already: that stays
            "n3,n1|n1|n3,",
            "n3,n3|n1|n3,n3",   // nothing of n1's: unchanged
    })
    void lettingGoClearsOnlyTheFormerSeatsNode(String placed, String node, String after) {
        String[] p = placed.split(",", -1);
        String[] a = after.split(",", -1);
        Placement got = FormerSeat.letGo(new Placement("mesh-store", p[0], p[1]), node);
        assertEquals(new Placement("mesh-store", a[0].isEmpty() ? null : a[0], a[1].isEmpty() ? null : a[1]), got);
    }

    @ParameterizedTest(name = "standby {0} with mesh-standby at {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "n2|-|mesh-standby",          // the first standby
            "n2|n2|mesh-standby",         // the same again: seat add is safe to run again
            "n1|n2|mesh-standby-n1",      // after a promote mesh-standby is the seat's store: the old seat's is its own
            "n1|n2 unassigned|mesh-standby-n1",
    })
    void theStandbysModuleIsMeshStandbyUnlessThatRunsElsewhere(String standby, String where, String module) {
        List<Placement> placements = new ArrayList<>(PROMOTED.subList(0, 3));
        if (where.equals("n2")) {
            placements.add(new Placement("mesh-standby", "n2", "n2"));
        } else if (where.equals("n2 unassigned")) {
            placements.add(new Placement("mesh-standby", null, "n2"));
        }
        assertEquals(module, FormerSeat.standbyModule(standby, placements));
        assertTrue(StandbyPlan.isModule(module), "a mesh module, protected as the standby is");
        assertTrue(MeshModules.isMeshModule(module));
    }

    @Test
    void anOldSeatsStandbyStreamsFromTheNewSeatUnderItsOwnName() {
        String text = StandbyPlan.manifest("mesh-standby-n1", "mesh-test/postgres:15", "10.77.0.12", "n1");
        mesh.model.Manifest m = mesh.model.ManifestYaml.parse("mesh-standby-n1.yaml", text);
        assertEquals("mesh-standby-n1", m.module());
        String script = m.components().get("mesh-standby-n1.postgres").args().get(2);
        assertTrue(script.contains("host=10.77.0.12 port=5432 user=mesh_replica application_name=n1") && script.contains("-S mesh_standby_n1"),
                script);
        assertTrue(!StandbyPlan.isModule("mesh-standbyx") && !StandbyPlan.isModule("app"));
    }
}
