package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import mesh.wire.HostStatus;
import mesh.wire.NodeStatus;
import mesh.wire.NodeView;
import org.junit.jupiter.api.Test;

/**
 * AgentCertificateLinesTest checks the warnings {@code mesh status} prints about the agents' certificates:
 * one line per node whose certificate expires within 30 days or has expired, none for a plain-HTTP or
 * older agent (no expiry reported), nor for a node whose agent did not answer.
 */
class AgentCertificateLinesTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    static NodeStatus node(String name, HostStatus agent) {
        return new NodeStatus(new NodeView(name, "10.77.0.1", "https://10.77.0.1:7701", null, 3, 3, null), agent,
                agent == null ? "node " + name + "'s agent: no answer" : null, agent != null, "ok");
    }

    static HostStatus agent(String name, Instant notAfter) {
        return new HostStatus(name, 3, 3, true, null, null, List.of()).withCertificateNotAfter(notAfter);
    }

    @Test
    void oneLinePerNodeWhoseAgentCertificateExpiresSoonOrHasExpired() {
        List<NodeStatus> nodes = List.of(
                node("ace", agent("ace", NOW.plus(Duration.ofDays(12)))),
                node("novox", agent("novox", NOW.plus(Duration.ofDays(300)))),
                node("g14", agent("g14", NOW.minus(Duration.ofDays(2)))),
                node("plain", agent("plain", null)),
                node("down", null));
        assertEquals(List.of(
                "warning: node ace's agent certificate expires on 2026-12-12 (in 12 days); reissue it before (docs/trust.md)",
                "warning: node g14's agent certificate expired on 2026-11-28; every TLS connection to it fails until it is"
                        + " reissued (docs/trust.md)"),
                StatusCommand.agentCertificateWarnings(nodes, NOW));
    }

    @Test
    void anExpiryThatIsNotAnInstantIsSaidNotThrown() {
        HostStatus odd = new HostStatus("ace", 3, 3, true, null, null, List.of(), null, 3, "next year");
        assertEquals(List.of("warning: node ace's agent certificate: its agent reports an expiry that is not an instant"
                + " ('next year')"), StatusCommand.agentCertificateWarnings(List.of(node("ace", odd)), NOW));
    }
}
