package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import mesh.api.PromText;
import mesh.model.ComponentState;
import mesh.wire.BackupStatus;
import mesh.wire.HostStatus;
import mesh.wire.NodeStatus;
import mesh.wire.NodeView;
import org.junit.jupiter.api.Test;

class ControllerMetricsTest {

    static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    static NodeStatus up(String name, long sent, long acked, HostStatus.Component... components) {
        return new NodeStatus(new NodeView(name, "10.0.0.1", "https://10.0.0.1:7701", null, sent, acked, null),
                new HostStatus(name, sent, acked, true, null, null, List.of(components)), null, true, "ok");
    }

    static NodeStatus down(String name) {
        return new NodeStatus(new NodeView(name, "10.0.0.2", "https://10.0.0.2:7701", null, 4, 3, null), null,
                "did not answer", false, "agent down");
    }

    static HostStatus.Component component(String name, String module, ComponentState state, int restarts) {
        return new HostStatus.Component(name, module, state, "d", "c", null, null, null, restarts, null);
    }

    @Test
    void aNodeIsUpWhenItsAgentAnsweredAndAModulesRestartsAreItsComponentsRestartsInAll() {
        PromText out = new PromText();
        BackupStatus failed = new BackupStatus("web", "ace", 3600L, 7, 9L, mesh.model.OperationState.FAILED, "2026-12-05T11:00:00Z", "disk full", 8L,
                "2026-12-05T10:00:00Z", null, null, null, false);
        NodeStatus ace = up("ace", 5, 5, component("web.app", "web", ComponentState.RUNNING, 2),
                component("web.db", "web", ComponentState.UNHEALTHY, 1)).withBackups(List.of(failed));
        ControllerMetrics.write(out, List.of(ace, down("novox")), List.of("web"), List.of(), NOW);
        String text = out.toString();
        assertTrue(text.contains("mesh_node_up{node=\"ace\"} 1\n"), text);
        assertTrue(text.contains("mesh_node_up{node=\"novox\"} 0\n"), text);
        assertTrue(text.contains("mesh_node_generation_sent{node=\"novox\"} 4\n"), text);
        assertTrue(text.contains("mesh_node_generation_acked{node=\"novox\"} 3\n"), text);
        assertFalse(text.contains("mesh_node_generation_applied{node=\"novox\"}"), text);
        assertTrue(text.contains("mesh_module_running{node=\"ace\",module=\"web\"} 1\n"), text);
        assertTrue(text.contains("mesh_module_healthy{node=\"ace\",module=\"web\"} 0\n"), text);
        assertTrue(text.contains("mesh_module_restarts_total{node=\"ace\",module=\"web\"} 3\n"), text);
        assertTrue(text.contains("mesh_backup_last_age_seconds{module=\"web\"} 3600\n"), text);
        assertTrue(text.contains("mesh_backup_last_success{module=\"web\"} 0\n"), text);
        assertTrue(text.contains("mesh_backup_last_success_age_seconds{module=\"web\"} 7200\n"), text);
        assertTrue(text.contains("mesh_backup_schedule_seconds{module=\"web\"} 3600\n"), text);
        assertTrue(text.contains("mesh_module_take_under_way{module=\"web\"} 1\n"), text);
    }

    @Test
    void pushTimesAreTheLastOneAndTheirCountAndSecondsInAll() {
        PushTimes times = new PushTimes();
        PromText before = new PromText();
        ControllerMetrics.pushes(before, times.seen());
        assertFalse(before.toString().contains("\nmesh_push_last_duration_seconds "), before.toString());
        times.pushed(1_500_000_000L);
        times.pushed(500_000_000L);
        PromText out = new PromText();
        ControllerMetrics.pushes(out, times.seen());
        String text = out.toString();
        assertTrue(text.contains("mesh_push_last_duration_seconds 0.5\n"), text);
        assertTrue(text.contains("mesh_pushes_total 2\n"), text);
        assertTrue(text.contains("mesh_push_seconds_total 2\n"), text);
    }
}
