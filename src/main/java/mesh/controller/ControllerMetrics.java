package mesh.controller;

import mesh.model.OperationState;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.api.MetricsSource;
import mesh.api.PromText;
import mesh.model.ComponentState;
import mesh.wire.BackupStatus;
import mesh.wire.HostStatus;
import mesh.wire.NodeStatus;
import mesh.wire.RestoreView;

/**
 * ControllerMetrics is the controller's {@code /metrics}: the mesh as {@code mesh status} sees it at the scrape (the
 * store read once, every agent asked at once and briefly, {@link MeshStatus}), so {@code mesh_node_up} is whether a
 * node's agent answered this very scrape; each module's state and restarts as its node's agent reports them, backups,
 * the takes and restores under way, the pushes' durations ({@link PushTimes}) and whether the store answers.
 * A store that does not answer leaves only {@code mesh_store_up 0} and the push times (docs/metrics.md).
 */
@ApplicationScoped
public class ControllerMetrics implements MetricsSource {

    @Inject
    MeshController controller;

    @Inject
    MeshStatus status;

    @Inject
    MeshRestore restores;

    @Inject
    PushTimes pushTimes;

    @Override
    public boolean serves() {
        return controller.serving();
    }

    @Override
    public void write(PromText out) {
        List<NodeStatus> nodes = null;
        List<RestoreView> restoring = List.of();
        try {
            nodes = status.status(false);
            restoring = restores.running();
        } catch (RuntimeException storeDown) {
            // the status reads the store first: what it could not read is left out, and the store is said down
        }
        out.gauge("mesh_store_up", "1 when the controller read the store at this scrape.")
                .sample("mesh_store_up", PromText.bool(nodes != null));
        pushes(out, pushTimes.seen());
        if (nodes != null) {
            write(out, nodes, nodes.stream().flatMap(n -> n.takes().stream()).map(t -> t.module()).distinct().toList(),
                    restoring.stream().map(RestoreView::module).distinct().toList(), Instant.now());
        }
        mesh.trust.ServerTrust.certificateNotAfter().ifPresent(t -> out
                .gauge("mesh_certificate_expiry_timestamp_seconds", "When the certificate this server serves expires (Unix time).")
                .sample("mesh_certificate_expiry_timestamp_seconds", t.getEpochSecond(), "server", "controller"));
    }

    static void pushes(PromText out, PushTimes.Seen seen) {
        out.gauge("mesh_push_last_duration_seconds", "How long the controller's last push took to record and send (absent before the first).");
        if (!Double.isNaN(seen.last())) {
            out.sample("mesh_push_last_duration_seconds", seen.last());
        }
        out.counter("mesh_pushes_total", "Pushes the controller sent since it started.").sample("mesh_pushes_total", seen.count());
        out.counter("mesh_push_seconds_total", "Seconds the controller's pushes took since it started.")
                .sample("mesh_push_seconds_total", seen.seconds());
    }

    /** The metrics of the nodes' statuses, the modules being taken and restored; pure, so a test gives it its records. */
    static void write(PromText out, List<NodeStatus> nodes, List<String> taking, List<String> restoring, Instant now) {
        out.gauge("mesh_node_up", "1 when the node's agent answered the controller at this scrape.");
        nodes.forEach(n -> out.sample("mesh_node_up", PromText.bool(n.agent() != null), "node", n.node().name()));
        out.gauge("mesh_node_ok", "1 when mesh status finds nothing wrong with the node.");
        nodes.forEach(n -> out.sample("mesh_node_ok", PromText.bool(n.ok()), "node", n.node().name()));
        out.gauge("mesh_node_generation_sent", "The declaration generation the controller last sent the node.");
        nodes.forEach(n -> out.sample("mesh_node_generation_sent", n.node().generation(), "node", n.node().name()));
        out.gauge("mesh_node_generation_acked", "The declaration generation the node's agent last acknowledged.");
        nodes.forEach(n -> out.sample("mesh_node_generation_acked", n.node().ackedGeneration(), "node", n.node().name()));
        out.gauge("mesh_node_generation_applied", "The declaration generation the node's agent says it applied (absent when it does not answer).");
        nodes.stream().filter(n -> n.agent() != null).forEach(n -> out.sample("mesh_node_generation_applied",
                n.agent().appliedGeneration(), "node", n.node().name()));
        modules(out, nodes);
        backups(out, nodes.stream().flatMap(n -> n.backups().stream()).toList(), now);
        out.gauge("mesh_module_take_under_way", "1 while a take moves the module.");
        taking.forEach(m -> out.sample("mesh_module_take_under_way", 1, "module", m));
        out.gauge("mesh_module_restore_under_way", "1 while a restore runs for the module.");
        restoring.forEach(m -> out.sample("mesh_module_restore_under_way", 1, "module", m));
    }

    /** Each module on each answering node: running and healthy when all its components are, and their restarts in all. */
    private static void modules(PromText out, List<NodeStatus> nodes) {
        record Module(String node, String module) implements Comparable<Module> {
            public int compareTo(Module o) {
                return (node + "/" + module).compareTo(o.node + "/" + o.module);
            }
        }
        Map<Module, int[]> seen = new TreeMap<>(); // running, healthy, restarts
        for (NodeStatus n : nodes) {
            if (n.agent() == null) {
                continue;
            }
            for (HostStatus.Component c : n.agent().components()) {
                int[] m = seen.computeIfAbsent(new Module(n.node().name(), c.module()), k -> new int[] {1, 1, 0});
                m[0] &= running(c.state()) ? 1 : 0;
                m[1] &= c.state() == ComponentState.RUNNING ? 1 : 0;
                m[2] += c.process() != null ? c.process().restarts() : c.restarts() == null ? 0 : c.restarts();
            }
        }
        out.gauge("mesh_module_running", "1 when every component of the module runs on the node (healthy or not).");
        seen.forEach((k, m) -> out.sample("mesh_module_running", m[0], "node", k.node(), "module", k.module()));
        out.gauge("mesh_module_healthy", "1 when every component of the module runs and passes its health check.");
        seen.forEach((k, m) -> out.sample("mesh_module_healthy", m[1], "node", k.node(), "module", k.module()));
        out.counter("mesh_module_restarts_total", "Restarts of the module's components on the node, as its agent counts them.");
        seen.forEach((k, m) -> out.sample("mesh_module_restarts_total", m[2], "node", k.node(), "module", k.module()));
    }

    static boolean running(ComponentState s) {
        return s == ComponentState.RUNNING || s == ComponentState.STARTING || s == ComponentState.UNHEALTHY
                || s == ComponentState.OUTDATED;
    }

    private static void backups(PromText out, List<BackupStatus> backups, Instant now) {
        out.gauge("mesh_backup_last_age_seconds", "Seconds since the module's last backup began.");
        backups.stream().filter(b -> b.lastAt() != null).forEach(b -> out.sample("mesh_backup_last_age_seconds",
                Math.max(0, now.getEpochSecond() - Instant.parse(b.lastAt()).getEpochSecond()), "module", b.module()));
        out.gauge("mesh_backup_last_success", "1 when the module's last backup ended done, 0 when it failed (absent while it runs).");
        backups.stream().filter(b -> b.lastState() == OperationState.DONE || b.lastState() == OperationState.FAILED).forEach(b -> out
                .sample("mesh_backup_last_success", PromText.bool(b.lastState() == OperationState.DONE), "module", b.module()));
        out.gauge("mesh_backup_last_success_age_seconds", "Seconds since the module's last good backup began.");
        backups.stream().filter(b -> b.lastDoneAt() != null).forEach(b -> out.sample("mesh_backup_last_success_age_seconds",
                Math.max(0, now.getEpochSecond() - Instant.parse(b.lastDoneAt()).getEpochSecond()), "module", b.module()));
        out.gauge("mesh_backup_schedule_seconds", "How often the module's manifest asks for a backup (absent: no schedule).");
        backups.stream().filter(b -> b.every() != null).forEach(b -> out.sample("mesh_backup_schedule_seconds", b.every(),
                "module", b.module()));
        out.gauge("mesh_backup_running", "1 while a backup of the module runs.");
        backups.stream().filter(b -> b.lastState() == OperationState.RUNNING).forEach(b -> out.sample("mesh_backup_running", 1,
                "module", b.module()));
    }
}
