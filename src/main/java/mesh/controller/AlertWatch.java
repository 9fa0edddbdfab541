package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mesh.model.ComponentState;
import mesh.model.DeclarationJson;
import mesh.model.OperationState;
import mesh.plan.AlertRules;
import mesh.store.AlertRecords;
import mesh.store.MeshStore;
import mesh.wire.AlertmanagerAlert;
import mesh.wire.BackupStatus;
import mesh.wire.HostStatus;
import mesh.wire.NodeStatus;
import mesh.wire.NodeTake;
import org.jboss.logging.Logger;

/**
 * AlertWatch is the controller's own loop for alerts (docs/metrics.md, "Alerts"): every {@link #EVERY} it looks at the
 * mesh as {@code mesh status} does ({@link MeshStatus}: every agent asked at once), lets {@link AlertRules} decide
 * which alerts start, fire and resolve from the alerts the store kept at the last look, records them (so a controller
 * killed and started again carries them on: no alert fires twice, no resolve is lost), and posts the firing ones and
 * those resolved in the last {@link #KEEP_RESOLVED} to every receiver ({@code mesh alerts add URL}: an Alertmanager's
 * {@code /api/v2/alerts}). One virtual thread; a look that fails (the store away) is logged and the next one tries again.
 */
@ApplicationScoped
public class AlertWatch {

    private static final Logger LOG = Logger.getLogger("mesh.alerts");
    static final Duration EVERY = Duration.ofSeconds(5);
    /** How long a resolved alert is kept and posted again (Prometheus keeps sending a resolve for 15 minutes too). */
    static final Duration KEEP_RESOLVED = Duration.ofMinutes(15);
    /** How long after a take or restore failed its alert holds (unless a later one of the module ends well first). */
    static final Duration FAILURE_HOLDS = Duration.ofHours(1);
    static final Duration POST_TIMEOUT = Duration.ofSeconds(5);

    @Inject
    MeshStore store;

    @Inject
    MeshStatus status;

    /** How the last post to each receiver went: when, and the error (null: accepted). */
    record Posted(Instant at, String error) {
    }

    private final Map<String, Posted> posted = new ConcurrentHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(POST_TIMEOUT).build();
    private final Periodic loop = new Periodic("alert-watch", EVERY, false, () -> look(Instant.now()), LOG);

    /** Starts the loop (once). */
    public void start() {
        loop.start();
    }

    Map<String, Posted> posted() {
        return posted;
    }

    /** One look: observe, decide, record, post. */
    void look(Instant now) {
        List<NodeStatus> nodes = status.status(false);
        record Looked(AlertRules.Step step, List<AlertRecords.Resolved> resolved, List<AlertRecords.Receiver> receivers) {
        }
        Looked l = store.inTransaction(c -> {
            AlertRules.Observed o = observed(nodes, AlertRecords.failedLately(c, false, now.minus(FAILURE_HOLDS)),
                    AlertRecords.failedLately(c, true, now.minus(FAILURE_HOLDS)),
                    mesh.trust.ServerTrust.certificateNotAfter().orElse(null), now);
            AlertRules.Step step = AlertRules.step(AlertRecords.open(c), AlertRules.conditions(o), now);
            AlertRecords.save(c, step.alerts(), step.changes(), now.minus(KEEP_RESOLVED));
            return new Looked(step, AlertRecords.resolvedSince(c, now.minus(KEEP_RESOLVED)), AlertRecords.receivers(c));
        });
        for (AlertRules.Change ch : l.step().changes()) {
            if (ch.fired()) {
                LOG.infof("alert %s fired: %s", ch.alert().kind().alertName, ch.alert().detail());
            } else {
                LOG.infof("alert %s resolved after %d s: %s", ch.alert().kind().alertName, ch.lasted().toSeconds(), ch.alert().detail());
            }
        }
        List<AlertmanagerAlert> alerts = AlertPosts.of(l.step().alerts(), l.resolved(), now, null);
        if (!alerts.isEmpty()) {
            l.receivers().forEach(r -> posted.put(r.url(), post(r.url(), alerts, now)));
        }
    }

    /** Posts {@code alerts} to the Alertmanager at {@code base}; how it went. */
    Posted post(String base, List<AlertmanagerAlert> alerts, Instant now) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v2/alerts")).timeout(POST_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(DeclarationJson.MAPPER.writeValueAsString(alerts))).build();
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() / 100 == 2) {
                return new Posted(now, null);
            }
            String why = "HTTP " + answer.statusCode() + ": " + answer.body().strip();
            LOG.warnf("the alerts were not taken at %s: %s", base, why);
            return new Posted(now, why);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Posted(now, "interrupted");
        } catch (java.io.IOException | RuntimeException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            LOG.warnf("the alerts could not be posted to %s: %s", base, why);
            return new Posted(now, why);
        }
    }

    /**
     * What {@link AlertRules} looks at, from the nodes' statuses: whether each node's agent answered, each module on an
     * answering node (one a take moves is left out: its stop and start are the take's), each module's backups, the
     * certificates the controller and the agents serve, each answering node's disks, and the takes and restores that
     * failed lately. Pure.
     */
    static AlertRules.Observed observed(List<NodeStatus> nodes, List<String> failedTakes, List<String> failedRestores,
                                        Instant controllerCertificate, Instant now) {
        List<AlertRules.Node> up = new ArrayList<>();
        List<AlertRules.Module> modules = new ArrayList<>();
        Map<String, AlertRules.Backup> backups = new LinkedHashMap<>();
        List<AlertRules.Certificate> certificates = new ArrayList<>();
        List<AlertRules.Disk> disks = new ArrayList<>();
        if (controllerCertificate != null) {
            certificates.add(new AlertRules.Certificate("controller", controllerCertificate));
        }
        for (NodeStatus n : nodes) {
            String name = n.node().name();
            HostStatus agent = n.agent();
            up.add(new AlertRules.Node(name, agent != null));
            for (BackupStatus b : n.backups()) {
                backups.putIfAbsent(b.module(), new AlertRules.Backup(b.module(), b.lastState() == OperationState.FAILED,
                        b.every() == null ? null : Duration.ofSeconds(b.every()),
                        b.lastDoneAt() == null ? null : Instant.parse(b.lastDoneAt())));
            }
            if (agent == null) {
                continue;
            }
            if (agent.certificateNotAfter() != null) {
                certificates.add(new AlertRules.Certificate(name, Instant.parse(agent.certificateNotAfter())));
            }
            agent.disks().forEach(d -> disks.add(new AlertRules.Disk(name, d.place(), d.free(), d.size())));
            List<String> moving = n.takes().stream().map(NodeTake::module).toList();
            Map<String, boolean[]> seen = new LinkedHashMap<>(); // healthy, crash-looping
            for (HostStatus.Component c : agent.components()) {
                if (moving.contains(c.module())) {
                    continue;
                }
                boolean[] m = seen.computeIfAbsent(c.module(), k -> new boolean[] {true, false});
                m[0] &= c.state() == ComponentState.RUNNING;
                m[1] |= c.state() == ComponentState.CRASH_LOOPING;
            }
            seen.forEach((module, m) -> modules.add(new AlertRules.Module(module, name, m[0], m[1])));
        }
        return new AlertRules.Observed(up, modules, List.copyOf(backups.values()), certificates, disks, failedTakes,
                failedRestores, now);
    }
}
