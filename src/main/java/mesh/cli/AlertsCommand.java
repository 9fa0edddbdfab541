package mesh.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import mesh.model.DurationText;
import mesh.wire.AlertReceiver;
import mesh.wire.AlertsView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "alerts",
        mixinStandardHelpOptions = true,
        description = {"The mesh's alerts: what fires now, and the Alertmanagers the controller tells.",
            "The controller looks at the mesh every 5 s and decides its alerts itself: a node whose agent does not answer (MeshNodeDown, after 30 s), a module restarting in a loop or unhealthy for 2 minutes, a backup failed or overdue, a take or restore failed, a certificate that expires within 14 days, less than 10 % of a node's disk free for 5 minutes. A condition must hold for its time before its alert fires and be gone for 30 s before it resolves; a node that is down holds its modules' alerts (one alert for a dead node, not one per module). Firing and resolved alerts are posted to every Alertmanager 'mesh alerts add' named, with when they began, and a resolve says how long it lasted: see docs/metrics.md.",
            "Uses MESH_CONTROLLER and MESH_TOKEN."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh alerts add http://alertmanager.lan:9093",
            "      post the alerts to that Alertmanager's /api/v2/alerts",
            "  mesh alerts list",
            "  mesh alerts list -o json"})
public class AlertsCommand {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"Show the alerts that fire now and since when, those pending (their condition holds, not long enough yet), those resolved in the last 15 minutes with how long they lasted, and each Alertmanager the alerts are posted to."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh alerts list",
                "  mesh alerts list -o json"})
    int list() {
        AlertsView v = ControllerClient.fromEnvironment().api().alerts();
        if (format.json()) {
            output.json(spec, v);
            return ExitCodes.OK;
        }
        Instant now = Instant.now();
        if (v.alerts().isEmpty()) {
            output.line(spec, "no alert fires");
        } else {
            output.table(spec, List.of("ALERT", "SUBJECT", "STATE", "SINCE", "DETAIL"), v.alerts().stream()
                    .map(a -> Arrays.asList(a.alert(), a.subject(), a.firing() ? "firing" : "pending",
                            Times.human(a.since(), now), a.detail())).toList());
        }
        if (!v.resolved().isEmpty()) {
            output.line(spec, "");
            output.line(spec, "resolved in the last 15 minutes:");
            output.table(spec, List.of("ALERT", "SUBJECT", "RESOLVED", "LASTED", "DETAIL"), v.resolved().stream()
                    .map(a -> Arrays.asList(a.alert(), a.subject(), Times.human(a.resolvedAt(), now),
                            a.lasted() == null ? "-" : DurationText.words(Duration.ofSeconds(a.lasted())), a.detail())).toList());
        }
        output.line(spec, "");
        if (v.receivers().isEmpty()) {
            output.line(spec, "the alerts are posted nowhere: 'mesh alerts add URL' names an Alertmanager");
        }
        v.receivers().forEach(r -> output.line(spec, "posted to " + r.url() + ": " + lastPost(r, now)));
        return ExitCodes.OK;
    }

    private static String lastPost(AlertReceiver r, Instant now) {
        if (r.lastPost() == null) {
            return "nothing posted yet (by this controller since it started)";
        }
        return r.lastError() == null ? "last post taken " + Times.human(r.lastPost(), now)
                : "last post " + Times.human(r.lastPost(), now) + " FAILED: " + r.lastError();
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Post the mesh's alerts to the Alertmanager whose base URL is URL.",
                "The controller posts them to URL/api/v2/alerts. It first posts an empty list there and adds URL only if it is taken, so a typo is found now, not on the night a node dies. Recorded in 'mesh audit'."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh alerts add http://alertmanager.lan:9093",
                "  mesh alerts add --no-check http://10.0.0.5:9093",
                "      add it while that Alertmanager is down"})
    int add(@Parameters(paramLabel = "URL", description = "the Alertmanager's base URL, e.g. http://127.0.0.1:9093") String url,
            @Option(names = "--no-check", description = "add URL without posting to it first") boolean noCheck) {
        AlertReceiver added = ControllerClient.fromEnvironment().api().addAlertReceiver(url, !noCheck);
        if (format.json()) {
            output.json(spec, added);
        } else {
            output.line(spec, "alerts are posted to " + added.url() + "/api/v2/alerts");
        }
        return ExitCodes.OK;
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = {"Stop posting the alerts to the Alertmanager at URL. Recorded in 'mesh audit'."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh alerts remove http://alertmanager.lan:9093"})
    int remove(@Parameters(paramLabel = "URL", description = "the base URL as 'mesh alerts list' shows it") String url) {
        AlertReceiver removed = ControllerClient.fromEnvironment().api().removeAlertReceiver(url);
        if (format.json()) {
            output.json(spec, removed);
        } else {
            output.line(spec, "alerts are no longer posted to " + removed.url());
        }
        return ExitCodes.OK;
    }
}
