package mesh.controller;

import static mesh.controller.ControllerMetricsTest.component;
import static mesh.controller.ControllerMetricsTest.down;
import static mesh.controller.ControllerMetricsTest.up;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import mesh.model.ComponentState;
import mesh.model.InvalidInput;
import mesh.model.OperationState;
import mesh.plan.AlertRules;
import mesh.plan.AlertRules.Alert;
import mesh.plan.AlertRules.Kind;
import mesh.store.AlertRecords.Resolved;
import mesh.wire.AlertmanagerAlert;
import mesh.wire.BackupStatus;
import mesh.wire.HostStatus;
import mesh.wire.NodeStatus;
import org.junit.jupiter.api.Test;

/** The controller's alerts between the nodes' statuses and Alertmanager: what the rules see, and what is posted. */
class AlertWatchTest {

    static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    @Test
    void theRulesSeeEachNodeUpOrDownAndEachModuleOnAnAnsweringNodeHealthyOrLooping() {
        NodeStatus ace = up("ace", 5, 5, component("web.app", "web", ComponentState.RUNNING, 0),
                component("web.db", "web", ComponentState.RUNNING, 0),
                component("mail.smtp", "mail", ComponentState.CRASH_LOOPING, 4),
                component("wiki.app", "wiki", ComponentState.STARTING, 0));
        AlertRules.Observed o = AlertWatch.observed(List.of(ace, down("novox")), List.of("ledger"), List.of(), null, NOW);
        assertEquals(List.of(new AlertRules.Node("ace", true), new AlertRules.Node("novox", false)), o.nodes());
        assertEquals(List.of(new AlertRules.Module("web", "ace", true, false), new AlertRules.Module("mail", "ace", false, true),
                new AlertRules.Module("wiki", "ace", false, false)), o.modules());
        assertEquals(List.of("ledger"), o.failedTakes());
        List<Kind> kinds = AlertRules.conditions(o).stream().map(AlertRules.Condition::kind).toList();
        assertEquals(List.of(Kind.NODE_DOWN, Kind.MODULE_RESTART_LOOP, Kind.MODULE_UNHEALTHY, Kind.TAKE_FAILED), kinds);
    }

    @Test
    void aModuleATakeMovesIsTheTakesNotAnAlert() {
        NodeStatus stopped = up("ace", 5, 5, component("web.app", "web", ComponentState.STOPPED, 0));
        NodeStatus ace = new NodeStatus(stopped.node(), stopped.agent(), null, true, "ok", List.of(new mesh.wire.NodeTake("web",
                "source", "ace", "novox", 7, mesh.model.TakeStep.COPY, OperationState.RUNNING, true, null, null, null)));
        assertEquals(List.of(), AlertWatch.observed(List.of(ace), List.of(), List.of(), null, NOW).modules());
    }

    @Test
    void certificatesAndDisksAreEachAnsweringAgentsAndTheControllersAndBackupsAreEachModulesOnce() {
        HostStatus agent = new HostStatus("ace", 1, 1, true, null, null, List.of()).withCertificateNotAfter(NOW.plus(Duration.ofDays(3)))
                .withDisks(List.of(new HostStatus.Disk("engine", 5, 100), new HostStatus.Disk("state", 50, 100)));
        BackupStatus failed = new BackupStatus("web", "ace", 3600L, 7, 9L, OperationState.FAILED, "2026-12-05T11:00:00Z", "disk full",
                8L, "2026-12-05T10:00:00Z", null, null, null, false);
        NodeStatus ace = new NodeStatus(up("ace", 1, 1).node(), agent, null, true, "ok").withBackups(List.of(failed));
        AlertRules.Observed o = AlertWatch.observed(List.of(ace), List.of(), List.of(), NOW.plus(Duration.ofDays(90)), NOW);
        assertEquals(List.of(new AlertRules.Certificate("controller", NOW.plus(Duration.ofDays(90))),
                new AlertRules.Certificate("ace", NOW.plus(Duration.ofDays(3)))), o.certificates());
        assertEquals(List.of(new AlertRules.Backup("web", true, Duration.ofHours(1), Instant.parse("2026-12-05T10:00:00Z"))), o.backups());
        assertEquals(List.of(new AlertRules.Disk("ace", "engine", 5, 100), new AlertRules.Disk("ace", "state", 50, 100)), o.disks());
        assertEquals(List.of("ace:engine"), AlertRules.conditions(o).stream().filter(c -> c.kind() == Kind.DISK_NEARLY_FULL)
                .map(AlertRules.Condition::subject).toList(), "5 % free is nearly full, 50 % is not");
    }

    static Alert firing(Kind kind, String subject, String node) {
        return new Alert(kind, subject, node, "what it says", NOW.minusSeconds(90), NOW.minusSeconds(60), null);
    }

    @Test
    void aFiringAlertIsPostedWithItsFirstSightAsStartAndAnEndAheadThatTheNextLookMovesOn() {
        Alert pending = new Alert(Kind.MODULE_UNHEALTHY, "web@ace", "ace", "not healthy", NOW, null, null);
        List<AlertmanagerAlert> posts = AlertPosts.of(List.of(firing(Kind.MODULE_RESTART_LOOP, "web@ace", "ace"), pending),
                List.of(), NOW, null);
        assertEquals(1, posts.size(), "a pending alert is not posted");
        AlertmanagerAlert a = posts.get(0);
        assertEquals(Map.of("alertname", "MeshModuleRestartLoop", "severity", "critical", "subject", "web@ace", "node", "ace",
                "module", "web"), a.labels());
        assertEquals(NOW.minusSeconds(90).toString(), a.startsAt());
        assertEquals(NOW.plus(AlertPosts.VALID_FOR).toString(), a.endsAt());
        assertEquals(Map.of("summary", "what it says"), a.annotations());
    }

    @Test
    void aResolvedAlertEndsWhenItsConditionWasFirstGoneAndSaysHowLongItLasted() {
        Resolved r = new Resolved(firing(Kind.NODE_DOWN, "novox", "novox"), NOW.minusSeconds(5));
        AlertmanagerAlert a = AlertPosts.of(List.of(), List.of(r), NOW, null).get(0);
        assertEquals(Map.of("alertname", "MeshNodeDown", "severity", "critical", "subject", "novox", "node", "novox"), a.labels());
        assertEquals(NOW.minusSeconds(5).toString(), a.endsAt());
        assertEquals("1m25s", a.annotations().get("lasted"));
        assertEquals("resolved: what it says for 1m25s", a.annotations().get("description"));
    }

    @Test
    void aBackupsTakesAndRestoresAlertsNameTheirModuleAndACertificatesNoModule() {
        assertEquals("ledger", AlertPosts.labels(firing(Kind.BACKUP_OVERDUE, "ledger", null)).get("module"));
        assertEquals("ledger", AlertPosts.labels(firing(Kind.RESTORE_FAILED, "ledger", null)).get("module"));
        Map<String, String> cert = AlertPosts.labels(firing(Kind.CERTIFICATE_EXPIRES, "controller", null));
        assertEquals(Map.of("alertname", "MeshCertificateExpiresSoon", "severity", "warning", "subject", "controller"), cert);
    }

    @Test
    void aReceiverIsAnHttpBaseUrlWithoutTheApiPathOrATrailingSlash() {
        assertEquals("http://127.0.0.1:9093", MeshAlerts.base("http://127.0.0.1:9093/"));
        assertEquals("https://am.lan/alertmanager", MeshAlerts.base("https://am.lan/alertmanager/api/v2/alerts"));
        for (String bad : List.of("", "127.0.0.1:9093", "ftp://am.lan", "http://am.lan:9093?x=1", "http://user:pw@am.lan", "http:// am")) {
            InvalidInput e = assertThrows(InvalidInput.class, () -> MeshAlerts.base(bad), bad);
            assertEquals(1, e.problems().size(), bad);
        }
    }
}
