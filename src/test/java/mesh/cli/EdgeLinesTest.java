package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.plan.MeshPlan.RosterEntry;
import mesh.wire.EdgeStatus;
import org.junit.jupiter.api.Test;

/** EdgeLinesTest checks the edge's lines of {@code mesh status} and the SERVED column of {@code mesh roster}. */
class EdgeLinesTest {

    @Test
    void statusSaysWhatAnEdgeServesSinceWhenAndWhatItRefused() {
        EdgeStatus serving = new EdgeStatus("route-proxy.server", "c1", "internal",
                List.of("a.zurag.be", "b.zurag.be"), "2026-11-30T20:00:00Z", List.of(), null, false);
        assertEquals("zurag edge: 2 routes loaded at 2026-11-30T20:00:00Z: a.zurag.be, b.zurag.be",
                StatusCommand.edge("zurag", serving));

        EdgeStatus refused = new EdgeStatus("route-proxy.server", "c1", "internal", List.of("a.zurag.be"),
                "2026-11-30T20:00:00Z", List.of("a.zurag.be", "broken.zurag.be"),
                "Caddy refused the routes: loading config: unknown module", true);
        assertEquals("zurag edge: 1 route loaded at 2026-11-30T20:00:00Z: a.zurag.be; refused: Caddy refused the routes:"
                + " loading config: unknown module; not served: broken.zurag.be", StatusCommand.edge("zurag", refused));

        EdgeStatus starting = new EdgeStatus("route-proxy.server", null, "acme", List.of(), null, List.of("a.zurag.be"),
                "the edge container route-proxy.server is not running yet", false);
        assertEquals("zurag edge: 0 routes loaded; the edge container route-proxy.server is not running yet;"
                + " not served: a.zurag.be", StatusCommand.edge("zurag", starting));
    }

    @Test
    void rosterMarksRoutedNamesWithTheEdgeThatServesThemAndWhereTheModuleRuns() {
        List<RosterEntry> roster = List.of(
                new RosterEntry("elsewhere.internal", "10.0.0.2", "g14", "elsewhere", "internal"),
                new RosterEntry("elsewhere.zurag.be", "10.0.0.1", "ace", "elsewhere", "route"),
                new RosterEntry("searxng.internal", "10.0.0.1", "ace", "searxng", "internal"),
                new RosterEntry("searxng.zurag.be", "10.0.0.1", "ace", "searxng", "route"));

        assertEquals(List.of("-", "by ace's edge, from g14", "-", "by ace's edge"),
                roster.stream().map(e -> RosterCommand.served(e, roster)).toList());
    }
}
