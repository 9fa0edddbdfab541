package mesh.host;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import mesh.api.MetricsSource;
import mesh.api.PromText;
import mesh.model.ComponentState;
import mesh.wire.HostStatus;

/**
 * HostMetrics is the agent's {@code /metrics}: what its status answer holds (the generation held and applied, each
 * component's state and restarts, as of the last look: no engine call), the last apply's duration, the free bytes
 * where volumes live (the engine's data root, asked once, and the state dir: a statfs each) and when the certificate
 * it serves expires. Everything is read at the scrape; nothing runs between scrapes (docs/metrics.md).
 */
@ApplicationScoped
public class HostMetrics implements MetricsSource {

    @Inject
    HostAgent agent;


    @Override
    public boolean serves() {
        return agent.serving();
    }

    @Override
    public void write(PromText out) {
        HostStatus s = agent.status();
        AgentState state = agent.state();
        Map<String, long[]> disks = new LinkedHashMap<>();
        s.disks().forEach(d -> disks.put(d.place(), new long[] {d.free(), d.size()}));
        write(out, s, state.lastApplySeconds, state.applies, state.applySeconds, disks, Instant.now());
    }

    /** The metrics of a status and what else the agent holds; pure, so a test gives it its records. */
    static void write(PromText out, HostStatus s, double lastApply, long applies, double applySeconds,
                      Map<String, long[]> freeBytes, Instant now) {
        String node = s.node();
        out.gauge("mesh_agent_declaration_generation", "The declaration generation this agent holds (0: none yet).")
                .sample("mesh_agent_declaration_generation", s.generation(), "node", node);
        out.gauge("mesh_agent_applied_generation", "The declaration generation this agent last applied in full.")
                .sample("mesh_agent_applied_generation", s.appliedGeneration(), "node", node);
        out.gauge("mesh_agent_converged", "1 when the engine matched the held declaration at the last look.")
                .sample("mesh_agent_converged", PromText.bool(s.converged()), "node", node);
        out.gauge("mesh_agent_engine_up", "1 when the node's engine answered at the last look.")
                .sample("mesh_agent_engine_up", PromText.bool(s.engineError() == null), "node", node);
        Map<String, Integer> byState = new TreeMap<>();
        for (String kind : new String[] {"container", "process"}) {
            for (ComponentState c : ComponentState.values()) {
                byState.put(kind + " " + c.json(), 0);
            }
        }
        s.components().forEach(c -> byState.merge((c.process() != null ? "process " : "container ") + c.state().json(), 1, Integer::sum));
        out.gauge("mesh_agent_components", "Declared components on this node by kind (container, process) and state.");
        byState.forEach((k, n) -> out.sample("mesh_agent_components", n, "node", node, "kind", k.substring(0, k.indexOf(' ')),
                "state", k.substring(k.indexOf(' ') + 1)));
        components(out, s);
        out.gauge("mesh_agent_last_apply_duration_seconds", "How long the agent's last apply of a plan took (absent before the first).");
        if (!Double.isNaN(lastApply)) {
            out.sample("mesh_agent_last_apply_duration_seconds", lastApply, "node", node);
        }
        out.counter("mesh_agent_applies_total", "Plans this agent applied since it started.")
                .sample("mesh_agent_applies_total", applies, "node", node);
        out.counter("mesh_agent_apply_seconds_total", "Seconds spent applying plans since the agent started.")
                .sample("mesh_agent_apply_seconds_total", applySeconds, "node", node);
        out.gauge("mesh_disk_free_bytes", "Bytes free where volumes live: the engine's data root and the agent's state dir.");
        freeBytes.forEach((place, bytes) -> out.sample("mesh_disk_free_bytes", bytes[0], "node", node, "place", place));
        out.gauge("mesh_disk_size_bytes", "The size of the file system where volumes live (the same places).");
        freeBytes.forEach((place, bytes) -> out.sample("mesh_disk_size_bytes", bytes[1], "node", node, "place", place));
        out.gauge("mesh_certificate_expiry_timestamp_seconds", "When the certificate this agent serves expires (Unix time).");
        if (s.certificateNotAfter() != null) {
            out.sample("mesh_certificate_expiry_timestamp_seconds", Instant.parse(s.certificateNotAfter()).getEpochSecond(),
                    "node", node, "server", "agent");
        }
    }

    private static void components(PromText out, HostStatus s) {
        String node = s.node();
        out.gauge("mesh_component_up", "1 when the component runs (its process is up, healthy or not).");
        s.components().forEach(c -> out.sample("mesh_component_up", PromText.bool(running(c)), labels(node, c)));
        out.gauge("mesh_component_healthy", "1 when the component runs and its health check passes (state running).");
        s.components().forEach(c -> out.sample("mesh_component_healthy", PromText.bool(c.state() == ComponentState.RUNNING),
                labels(node, c)));
        out.counter("mesh_component_restarts_total", "Restarts of the component as its engine or supervisor counts them"
                + " (from 0 again when it is replaced).");
        s.components().forEach(c -> out.sample("mesh_component_restarts_total", restarts(c), labels(node, c)));
    }

    static boolean running(HostStatus.Component c) {
        return switch (c.state()) {
            case RUNNING, STARTING, UNHEALTHY, OUTDATED -> true;
            default -> false;
        };
    }

    static int restarts(HostStatus.Component c) {
        if (c.process() != null) {
            return c.process().restarts();
        }
        return c.restarts() == null ? 0 : c.restarts();
    }

    private static String[] labels(String node, HostStatus.Component c) {
        return new String[] {"node", node, "module", c.module(), "component", c.name()};
    }
}
