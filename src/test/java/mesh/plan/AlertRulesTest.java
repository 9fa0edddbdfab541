package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mesh.plan.AlertRules.Alert;
import mesh.plan.AlertRules.Change;
import mesh.plan.AlertRules.Condition;
import mesh.plan.AlertRules.Kind;
import mesh.plan.AlertRules.Observed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AlertRulesTest {

    static final Instant T0 = Instant.parse("2026-12-05T12:00:00Z");

    static Observed observed(List<AlertRules.Node> nodes, List<AlertRules.Module> modules) {
        return new Observed(nodes, modules, List.of(), List.of(), List.of(), List.of(), List.of(), T0);
    }

    static Condition nodeDown(String node) {
        return new Condition(Kind.NODE_DOWN, node, node, node + " down");
    }

    static Condition loop(String module, String node) {
        return new Condition(Kind.MODULE_RESTART_LOOP, module + "@" + node, node, module + " loops");
    }

    /**
     * A timeline: at each second given, the conditions seen; the names of the alerts that fired and resolved over it
     * ({@code +Name/subject} fired, {@code -Name/subject} resolved), in order.
     */
    static Stream<Arguments> timelines() {
        List<Condition> down = List.of(nodeDown("n3"));
        List<Condition> none = List.of();
        return Stream.of(
                Arguments.of("a node down for less than 30 s fires nothing", List.of(down, down, none, none), 10,
                        List.of()),
                Arguments.of("a node down for 30 s fires once, and resolves 30 s after it is back, saying how long",
                        List.of(down, down, down, down, down, none, none, none, none), 10,
                        List.of("+MeshNodeDown/n3", "-MeshNodeDown/n3 50s")),
                Arguments.of("a flap shorter than the clear hold is one alert, not two",
                        List.of(down, down, down, down, none, down, down, none, none, none, none), 10,
                        List.of("+MeshNodeDown/n3", "-MeshNodeDown/n3 70s")),
                Arguments.of("a restart loop fires at once and stays one alert while it loops",
                        List.of(List.of(loop("web", "n2")), List.of(loop("web", "n2")), List.of(loop("web", "n2"))), 10,
                        List.of("+MeshModuleRestartLoop/web@n2")),
                Arguments.of("a down node's modules start no alert",
                        List.of(List.of(nodeDown("n2"), loop("web", "n2")), List.of(nodeDown("n2"), loop("web", "n2")),
                                List.of(nodeDown("n2"), loop("web", "n2")), List.of(nodeDown("n2"), loop("web", "n2"))), 10,
                        List.of("+MeshNodeDown/n2")),
                Arguments.of("a firing module alert is held, not resolved, while its node is down",
                        List.of(List.of(loop("web", "n2")), List.of(nodeDown("n2")), List.of(nodeDown("n2")),
                                List.of(nodeDown("n2")), List.of(nodeDown("n2")), List.of(nodeDown("n2")),
                                List.of(nodeDown("n2")), List.of(nodeDown("n2"))), 10,
                        List.of("+MeshModuleRestartLoop/web@n2", "+MeshNodeDown/n2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("timelines")
    void alertsFireAfterTheirHoldAndResolveAfterTheClearHold(String name, List<List<Condition>> seen, int everySeconds,
                                                            List<String> expected) {
        List<Alert> alerts = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        for (int i = 0; i < seen.size(); i++) {
            AlertRules.Step step = AlertRules.step(alerts, seen.get(i), T0.plusSeconds((long) i * everySeconds));
            alerts = step.alerts();
            for (Change c : step.changes()) {
                changes.add((c.fired() ? "+" : "-") + c.alert().kind().alertName + "/" + c.alert().subject()
                        + (c.fired() ? "" : " " + c.lasted().toSeconds() + "s"));
            }
        }
        assertEquals(expected, changes, name);
    }

    @Test
    void theObservedConditionsAreDownNodesLoopsUnhealthyModulesBackupsCertificatesDisksAndFailures() {
        Observed o = new Observed(List.of(new AlertRules.Node("n1", true), new AlertRules.Node("n2", false)),
                List.of(new AlertRules.Module("web", "n1", false, true), new AlertRules.Module("db", "n1", false, false),
                        new AlertRules.Module("ok", "n1", true, false)),
                List.of(new AlertRules.Backup("web", true, Duration.ofHours(1), T0.minus(Duration.ofHours(3))),
                        new AlertRules.Backup("db", false, Duration.ofHours(1), T0.minus(Duration.ofMinutes(90)))),
                List.of(new AlertRules.Certificate("controller", T0.plus(Duration.ofDays(13))),
                        new AlertRules.Certificate("n1", T0.plus(Duration.ofDays(15)))),
                List.of(new AlertRules.Disk("n1", "engine", 5, 100), new AlertRules.Disk("n1", "state", 50, 100)),
                List.of("mail"), List.of(), T0);
        List<String> found = AlertRules.conditions(o).stream().map(c -> c.kind().alertName + "/" + c.subject()).toList();
        assertEquals(List.of("MeshNodeDown/n2", "MeshModuleRestartLoop/web@n1", "MeshModuleUnhealthy/db@n1",
                "MeshBackupFailed/web", "MeshBackupOverdue/web", "MeshCertificateExpiresSoon/controller",
                "MeshDiskNearlyFull/n1:engine", "MeshTakeFailed/mail"), found);
    }

    @Test
    void aPendingAlertWhoseConditionGoesIsDroppedWithoutAResolve() {
        AlertRules.Step first = AlertRules.step(List.of(), List.of(nodeDown("n3")), T0);
        assertEquals(1, first.alerts().size());
        assertTrue(!first.alerts().get(0).firing());
        AlertRules.Step gone = AlertRules.step(first.alerts(), List.of(), T0.plusSeconds(10));
        assertEquals(List.of(), gone.alerts());
        assertEquals(List.of(), gone.changes());
    }

    @Test
    void noModuleAlertStartsFromAnEmptyObservationOfAnUpMesh() {
        assertEquals(List.of(), AlertRules.conditions(observed(List.of(new AlertRules.Node("n1", true)),
                List.of(new AlertRules.Module("web", "n1", true, false)))));
    }
}
