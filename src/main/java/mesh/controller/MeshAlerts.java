package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import mesh.model.InvalidInput;
import mesh.model.NotFound;
import mesh.store.AlertRecords;
import mesh.store.MeshStore;
import mesh.wire.AlertReceiver;
import mesh.wire.AlertsView;

/**
 * MeshAlerts is what {@code mesh alerts} asks of the controller: the alerts as {@link AlertWatch} left them at its last
 * look, and the receivers it posts them to, which an operator adds (checked first: the Alertmanager there must take an
 * empty post) and removes. Each change of receivers is in the audit trail.
 */
@ApplicationScoped
public class MeshAlerts {

    @Inject
    MeshStore store;

    @Inject
    AlertWatch watch;

    @Inject
    AuditTrail audit;

    public AlertsView list() {
        Instant now = Instant.now();
        return store.inTransaction(c -> new AlertsView(
                AlertRecords.open(c).stream().map(AlertPosts::view).toList(),
                AlertRecords.resolvedSince(c, now.minus(AlertWatch.KEEP_RESOLVED)).stream().map(AlertPosts::view).toList(),
                AlertRecords.receivers(c).stream().map(this::receiver).toList()));
    }

    private AlertReceiver receiver(AlertRecords.Receiver r) {
        AlertWatch.Posted p = watch.posted().get(r.url());
        return new AlertReceiver(r.url(), r.addedAt().toString(), r.addedBy(), p == null ? null : p.at().toString(),
                p == null ? null : p.error());
    }

    /** Adds an Alertmanager's base URL; with {@code check}, only once an empty post there is taken. */
    public AlertReceiver add(String url, boolean check) {
        String base = base(url);
        if (check) {
            AlertWatch.Posted tried = watch.post(base, List.of(), Instant.now());
            if (tried.error() != null) {
                throw new InvalidInput(List.of("no Alertmanager took an empty post at " + base + "/api/v2/alerts: " + tried.error()
                        + " (is it running, and is this its base URL? 'mesh alerts add --no-check' adds it anyway)"));
            }
        }
        return store.inTransaction(c -> {
            if (AlertRecords.addReceiver(c, base, audit.who())) {
                audit.record(c, "alerts", "alerts are posted to " + base);
            }
            return AlertRecords.receivers(c).stream().filter(r -> r.url().equals(base)).map(this::receiver).findFirst().orElseThrow();
        });
    }

    /** Removes a receiver; one that is not there is a NotFound naming those that are. */
    public AlertReceiver remove(String url) {
        String base = base(url);
        return store.inTransaction(c -> {
            List<AlertRecords.Receiver> all = AlertRecords.receivers(c);
            AlertRecords.Receiver found = all.stream().filter(r -> r.url().equals(base)).findFirst().orElseThrow(() -> new NotFound(
                    "alerts are not posted to " + base + (all.isEmpty() ? " (nor anywhere: 'mesh alerts add URL' adds a place)"
                            : "; they are posted to " + String.join(", ", all.stream().map(AlertRecords.Receiver::url).toList()))));
            AlertRecords.removeReceiver(c, base);
            audit.record(c, "alerts", "alerts are no longer posted to " + base);
            return receiver(found);
        });
    }

    /** An Alertmanager's base URL as given (http or https, a host, no query), without a trailing slash; else InvalidInput. */
    static String base(String url) {
        String problem = "'" + url + "' is not an Alertmanager's base URL: expected http://HOST:PORT or https://HOST:PORT[/PATH]"
                + " (the controller posts to its /api/v2/alerts)";
        if (url == null || url.isBlank()) {
            throw new InvalidInput(List.of("an Alertmanager's base URL is needed, e.g. http://127.0.0.1:9093"));
        }
        URI u;
        try {
            u = new URI(url.strip());
        } catch (java.net.URISyntaxException e) {
            throw new InvalidInput(List.of(problem));
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null || u.getRawQuery() != null
                || u.getRawFragment() != null || u.getRawUserInfo() != null) {
            throw new InvalidInput(List.of(problem));
        }
        String s = u.toString();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        if (s.endsWith("/api/v2/alerts")) {
            s = s.substring(0, s.length() - "/api/v2/alerts".length());
        }
        return s;
    }
}
