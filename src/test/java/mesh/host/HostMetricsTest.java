package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import mesh.api.PromText;
import mesh.model.ComponentState;
import mesh.model.ProcessState;
import mesh.wire.HostStatus;
import org.junit.jupiter.api.Test;

class HostMetricsTest {

    static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    static String written(HostStatus s, double lastApply, Map<String, long[]> free) {
        PromText out = new PromText();
        HostMetrics.write(out, s, lastApply, 4, 2.5, free, NOW);
        return out.toString();
    }

    static HostStatus status() {
        return new HostStatus("ace", 7, 6, false, null, null, List.of(
                new HostStatus.Component("web.app", "web", ComponentState.RUNNING, "d1", "c1", null, null, null, 3, "signal 9"),
                new HostStatus.Component("web.db", "web", ComponentState.CRASH_LOOPING, "d2", "c2", null, null, "exit 1", 5, "exit 1"),
                new HostStatus.Component("job.run", "job", ComponentState.RUNNING, "d3", null, null,
                        new HostStatus.Process(ProcessState.RUNNING, 42, 2, null, null, null), null, null, null)),
                null, 7, "2027-12-05T12:00:00Z");
    }

    @Test
    void eachComponentsStateAndRestartsAreSaidAndCountedByKindAndState() {
        String text = written(status(), 0.75, Map.of("state", new long[] {1000, 4000}));
        assertTrue(text.contains("mesh_agent_declaration_generation{node=\"ace\"} 7\n"), text);
        assertTrue(text.contains("mesh_agent_applied_generation{node=\"ace\"} 6\n"), text);
        assertTrue(text.contains("mesh_agent_converged{node=\"ace\"} 0\n"), text);
        assertTrue(text.contains("mesh_agent_components{node=\"ace\",kind=\"container\",state=\"running\"} 1\n"), text);
        assertTrue(text.contains("mesh_agent_components{node=\"ace\",kind=\"container\",state=\"crash-looping\"} 1\n"), text);
        assertTrue(text.contains("mesh_agent_components{node=\"ace\",kind=\"process\",state=\"running\"} 1\n"), text);
        assertTrue(text.contains("mesh_agent_components{node=\"ace\",kind=\"process\",state=\"missing\"} 0\n"), text);
        assertTrue(text.contains("mesh_component_restarts_total{node=\"ace\",module=\"web\",component=\"web.db\"} 5\n"), text);
        assertTrue(text.contains("mesh_component_restarts_total{node=\"ace\",module=\"job\",component=\"job.run\"} 2\n"), text);
        assertTrue(text.contains("mesh_component_up{node=\"ace\",module=\"web\",component=\"web.db\"} 0\n"), text);
        assertTrue(text.contains("mesh_component_healthy{node=\"ace\",module=\"web\",component=\"web.app\"} 1\n"), text);
        assertTrue(text.contains("mesh_agent_last_apply_duration_seconds{node=\"ace\"} 0.75\n"), text);
        assertTrue(text.contains("mesh_agent_applies_total{node=\"ace\"} 4\n"), text);
        assertTrue(text.contains("mesh_disk_free_bytes{node=\"ace\",place=\"state\"} 1000\n"), text);
        assertTrue(text.contains("mesh_disk_size_bytes{node=\"ace\",place=\"state\"} 4000\n"), text);
        assertTrue(text.contains("mesh_certificate_expiry_timestamp_seconds{node=\"ace\",server=\"agent\"} "
                + Instant.parse("2027-12-05T12:00:00Z").getEpochSecond() + "\n"), text);
    }

    @Test
    void beforeItsFirstApplyAndOnPlainHttpTheirSamplesAreAbsentNotZero() {
        HostStatus plain = new HostStatus("ace", 0, 0, true, null, null, List.of());
        String text = written(plain, Double.NaN, Map.of());
        assertTrue(text.contains("# TYPE mesh_agent_last_apply_duration_seconds gauge\n"), text);
        assertFalse(text.contains("mesh_agent_last_apply_duration_seconds{"), text);
        assertFalse(text.contains("mesh_certificate_expiry_timestamp_seconds{"), text);
        assertEquals(1, text.lines().filter(l -> l.startsWith("# TYPE mesh_component_restarts_total ")).count());
    }
}
