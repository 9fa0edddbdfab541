package mesh.controller;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.model.DurationText;
import mesh.plan.AlertRules.Alert;
import mesh.plan.AlertRules.Kind;
import mesh.store.AlertRecords.Resolved;
import mesh.wire.AlertView;
import mesh.wire.AlertmanagerAlert;

/**
 * AlertPosts words the controller's alerts for Alertmanager's {@code POST /api/v2/alerts} and for {@code mesh alerts
 * list}. An alert's labels say which it is ({@code alertname}, {@code severity}, {@code subject}, and {@code node} and
 * {@code module} when it is about one: Alertmanager groups and inhibits by them, as examples/prometheus/alertmanager.yml
 * does); its {@code startsAt} is when its condition was first seen, the same at every post and across controller
 * restarts, so Alertmanager sees one alert. A firing alert ends {@link #VALID_FOR} after each post (the controller says
 * it again at every look; should the controller stop, Alertmanager resolves it by itself then); a resolved one ends
 * when its condition was first gone and says how long it lasted. Pure.
 */
final class AlertPosts {

    /** How far ahead a firing alert's {@code endsAt} is set at each post (Prometheus's own rule: a few looks). */
    static final Duration VALID_FOR = Duration.ofMinutes(5);

    private AlertPosts() {
    }

    /** What to post: every firing alert, and every resolved one still kept; pending alerts are not posted. */
    static List<AlertmanagerAlert> of(List<Alert> open, List<Resolved> resolved, Instant now, String generator) {
        List<AlertmanagerAlert> out = new ArrayList<>();
        open.stream().filter(Alert::firing).forEach(a -> out.add(new AlertmanagerAlert(labels(a), annotations(a, null),
                a.since().toString(), now.plus(VALID_FOR).toString(), generator)));
        resolved.forEach(r -> out.add(new AlertmanagerAlert(labels(r.alert()), annotations(r.alert(), r.lasted()),
                r.alert().since().toString(), r.at().toString(), generator)));
        return out;
    }

    static Map<String, String> labels(Alert a) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("alertname", a.kind().alertName);
        labels.put("severity", severity(a.kind()));
        labels.put("subject", a.subject());
        if (a.node() != null) {
            labels.put("node", a.node());
        }
        String module = module(a);
        if (module != null) {
            labels.put("module", module);
        }
        return labels;
    }

    private static Map<String, String> annotations(Alert a, Duration lasted) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("summary", a.detail());
        if (lasted != null) {
            String words = DurationText.words(Duration.ofSeconds(lasted.toSeconds()));
            out.put("lasted", words);
            out.put("description", "resolved: " + a.detail() + " for " + words);
        }
        return out;
    }

    /** A node down, a module restarting in a loop and a disk nearly full need someone now; the rest can wait for the day. */
    static String severity(Kind kind) {
        return switch (kind) {
            case NODE_DOWN, MODULE_RESTART_LOOP, DISK_NEARLY_FULL -> "critical";
            default -> "warning";
        };
    }

    /** The module an alert is about: {@code module@node} for a module's health, the subject for its backups, takes, restores. */
    static String module(Alert a) {
        return switch (a.kind()) {
            case MODULE_UNHEALTHY, MODULE_RESTART_LOOP -> a.subject().substring(0, a.subject().lastIndexOf('@'));
            case BACKUP_FAILED, BACKUP_OVERDUE, TAKE_FAILED, RESTORE_FAILED -> a.subject();
            default -> null;
        };
    }

    static AlertView view(Alert a) {
        return new AlertView(a.kind().alertName, a.subject(), a.node(), module(a), a.firing(), a.since().toString(),
                a.firedAt() == null ? null : a.firedAt().toString(), a.detail(), null, null);
    }

    static AlertView view(Resolved r) {
        Alert a = r.alert();
        return new AlertView(a.kind().alertName, a.subject(), a.node(), module(a), true, a.since().toString(),
                a.firedAt() == null ? null : a.firedAt().toString(), a.detail(), r.at().toString(), r.lasted().toSeconds());
    }
}
