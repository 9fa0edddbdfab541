package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** RebuildTest: the pure decisions of {@code mesh install --from-backup}. */
class RebuildTest {

    static Stream<Arguments> sources() {
        return Stream.of(
                Arguments.of("/mnt/usb/mesh.backup", "/mnt/usb/mesh.backup", null, null),
                Arguments.of("mesh.backup", "mesh.backup", null, null),
                Arguments.of("./x/mesh-state:odd", "./x/mesh-state:odd", null, null),
                Arguments.of("10.0.0.3:5000/mesh-state:mesh-state-20261205T100003Z", null, "http://10.0.0.3:5000",
                        "mesh-state-20261205T100003Z"),
                Arguments.of("node:n3 10.0.0.3:5000/mesh-state:mesh-state-20261205T100003Z", null, "http://10.0.0.3:5000",
                        "mesh-state-20261205T100003Z"),
                Arguments.of("http://10.0.0.3:5000/mesh-state:t1", null, "http://10.0.0.3:5000", "t1"));
    }

    @ParameterizedTest
    @MethodSource("sources")
    void aSourceIsAFileOrARegistryReference(String from, String file, String registry, String tag) {
        assertEquals(new Rebuild.Source(file, registry, tag), Rebuild.source(from));
    }

    @Test
    void joinOptionsAndAStoreUrlAreRefused() {
        assertEquals(List.of(), Rebuild.problems(false, false, false, false));
        assertEquals(1, Rebuild.problems(true, false, false, false).size());
        assertEquals(1, Rebuild.problems(false, true, true, false).size());
        assertEquals(2, Rebuild.problems(false, true, false, true).size());
    }

    @Test
    void theSeatKeepsTheOldSeatsNameAsItsCaNamesIt() {
        assertEquals("ace", Rebuild.seatName("mesh CA ace", null));
        assertEquals("ace", Rebuild.seatName("mesh CA ace", "ace"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Rebuild.seatName("mesh CA ace", "bee"));
        assertTrue(e.getMessage().contains("ace"), e.getMessage());
        assertEquals("bee", Rebuild.seatName("someone's CA", "bee"));
        assertThrows(IllegalArgumentException.class, () -> Rebuild.seatName("someone's CA", null));
    }

    private static final Instant MADE = Instant.parse("2026-12-06T02:00:00Z");
    private static final List<String> OWN = SeatCatalogue.MODULES;

    static Stream<Arguments> adoptions() {
        Rebuild.Operation take = new Rebuild.Operation(Rebuild.Kind.TAKE, 7, "web");
        Rebuild.Operation backup = new Rebuild.Operation(Rebuild.Kind.BACKUP, 3, "db");
        Rebuild.Operation restore = new Rebuild.Operation(Rebuild.Kind.RESTORE, 2, "wiki");
        return Stream.of(
                Arguments.of("nothing under way, nothing on the seat but the mesh's own",
                        List.of(p("mesh-store", "ace", "ace"), p("mesh-controller", "ace", "ace"), p("web", "n2", "n2")),
                        List.of(), List.of(), List.of()),
                Arguments.of("a module that ran on the seat is lost, one assigned there and not yet taken too",
                        List.of(p("web", "ace", "ace"), p("db", "n2", "ace"), p("wiki", "ace", null), p("mail", "n2", null),
                                p("notes", "ace", "n3")),
                        List.of(), List.of(), List.of("db", "web", "wiki")),
                Arguments.of("every operation under way fails, whatever it was",
                        List.of(p("web", "n2", "n2")), List.of(take, backup, restore), List.of(take, backup, restore), List.of()));
    }

    private static Rebuild.Placement p(String module, String assigned, String taken) {
        return new Rebuild.Placement(module, assigned, taken);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("adoptions")
    void theLoadedStoreAdoptsTheFleet(String name, List<Rebuild.Placement> placements, List<Rebuild.Operation> running,
                                      List<Rebuild.Operation> failed, List<String> lost) {
        Rebuild.Adoption a = Rebuild.adopt("ace", OWN, placements, running, MADE);
        assertEquals(failed, a.failed().stream().map(Rebuild.Failed::operation).toList());
        assertEquals(lost, a.lost());
        a.failed().forEach(f -> assertTrue(f.reason().contains("rebuilt from its state backup of " + MADE), f.reason()));
        assertEquals(failed.size() + lost.size(), Rebuild.lines(a, "ace").size());
    }
}
