package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import mesh.wire.PlanCounts;
import mesh.wire.PlanView;
import mesh.wire.PushReport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PlanLinesTest: a push's lines for people say, per node and in all, what is created, replaced,
 * removed and left, and how many the budget counts; on plain values (the field report: a preview that
 * said "would replace 0" over a removal of the mesh's store).
 */
class PlanLinesTest {

    static final PlanView REMOVES_STORE = new PlanView("1 to remove, 3 unchanged", List.of(), List.of(), List.of(),
            List.of("mesh-store.postgres"), 3);
    static final PlanView REPLACES_AND_CREATES = new PlanView("1 to create, 1 to replace (web.server: image), 1 to start, 0 unchanged",
            List.of("web.cache"), List.of(new PlanView.Replaced("web.server", "web", List.of("image"))), List.of("web.db"),
            List.of(), 0);

    static PushReport report(boolean dryRun, PlanView... plans) {
        List<PushReport.NodeResult> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < plans.length; i++) {
            nodes.add(new PushReport.NodeResult("n" + (i + 1), dryRun ? PushReport.Outcome.WOULD_SEND : PushReport.Outcome.SENT,
                    4, false, plans[i], null));
        }
        nodes.add(new PushReport.NodeResult("n9", PushReport.Outcome.UNCHANGED, 0, false, null, null));
        return new PushReport(dryRun, 0, nodes, List.of());
    }

    static Stream<Arguments> lines() {
        return Stream.of(
                Arguments.of(report(true, REMOVES_STORE), List.of("  remove  mesh-store.postgres",
                                "  n1: would create 0, replace 0, remove 1 and leave 3 container(s)"),
                        "would create 0, replace 0, remove 1 and leave 3 container(s) in all; 1 replaced or removed, which the"
                                + " push budget counts"),
                Arguments.of(report(false, REMOVES_STORE, REPLACES_AND_CREATES), List.of("  remove  mesh-store.postgres",
                                "  n1: created 0, replaced 0, removed 1 and left 3 container(s)"),
                        "created 1, replaced 1, removed 1 and left 4 container(s) in all; 2 replaced or removed, which the push"
                                + " budget counts"),
                Arguments.of(report(true), List.of(),
                        "would create 0, replace 0, remove 0 and leave 0 container(s) in all; 0 replaced or removed, which the"
                                + " push budget counts"));
    }

    @ParameterizedTest
    @MethodSource("lines")
    void eachNodeAndThePushSayWhatIsCreatedReplacedRemovedAndLeft(PushReport report, List<String> first, String total) {
        if (!first.isEmpty()) {
            PushReport.NodeResult n1 = report.nodes().get(0);
            List<String> lines = new java.util.ArrayList<>(PlanLines.of(n1.plan()));
            lines.add(PlanLines.node(n1, report.dryRun()));
            assertEquals(first, lines);
        }
        assertEquals(total, PlanLines.total(report));
    }

    @org.junit.jupiter.api.Test
    void aReportFromAnOlderControllerWithoutCountsIsCountedFromItsPlans() {
        PushReport.NodeResult bare = new PushReport.NodeResult("n1", PushReport.Outcome.WOULD_SEND, 4, false, REMOVES_STORE,
                null, null);
        PushReport old = new PushReport(true, 0, List.of(bare), List.of(), 0, null);
        assertEquals("  n1: would create 0, replace 0, remove 1 and leave 3 container(s)", PlanLines.node(bare, true));
        assertEquals(new PlanCounts(0, 0, 1, 3), PlanCounts.of(REMOVES_STORE));
        assertEquals("would create 0, replace 0, remove 0 and leave 0 container(s) in all; 0 replaced or removed, which the"
                + " push budget counts", PlanLines.total(old), "no node counts: nothing to sum");
    }

    /** A cutover reads as one in the preview and counts as the replace it is (blast radius and budget unchanged). */
    @org.junit.jupiter.api.Test
    void aCutoverSaysCutoverWhereAReplaceSaysReplaceAndCountsAsAReplace() {
        PlanView cuts = new PlanView("1 to replace (web.server: image, cut over), 0 unchanged", List.of(),
                List.of(new PlanView.Replaced("web.server", "web", List.of("image"), true),
                        new PlanView.Replaced("web.cache", "web", List.of("env"))), List.of(), List.of(), 0);
        PushReport report = report(true, cuts);
        assertEquals(List.of("  cutover web.server (web): image changed", "  replace web.cache (web): env changed"),
                PlanLines.of(cuts));
        assertEquals("would create 0, replace 2, remove 0 and leave 0 container(s) in all; 2 replaced or removed, which the"
                + " push budget counts", PlanLines.total(report));
    }
}
