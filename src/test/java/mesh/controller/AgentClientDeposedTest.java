package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mesh.client.AgentApi;
import mesh.model.Declaration;
import mesh.model.Node;
import mesh.plan.SeatEpoch;
import mesh.wire.CallFailure;
import mesh.wire.Reason;
import org.junit.jupiter.api.Test;

/**
 * AgentClientDeposedTest: once an agent's answer names a newer seat, this controller's client sends no change to any
 * agent (a deposed controller changes nothing, also where an agent has not heard of the promoted seat), while its looks
 * still go out. The agent here is a port nobody listens on: a call that was sent fails as unreachable, one refused
 * before it was sent fails as deposed.
 */
class AgentClientDeposedTest {

    static HttpHeaders naming(long epoch, String seat) {
        return HttpHeaders.of(Map.of(SeatEpoch.EPOCH_HEADER, List.of(Long.toString(epoch)), SeatEpoch.SEAT_HEADER, List.of(seat)),
                (k, v) -> true);
    }

    static Node silentAgent() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();   // closed again: connecting is refused at once
        }
        return new Node("n3", "127.0.0.1", "http://127.0.0.1:" + port, null);
    }

    @Test
    void aDeposedControllerSendsNoChangeButStillLooks() throws IOException {
        AgentClient client = new AgentClient();
        client.speakAs(new SeatEpoch(5, "n1"));
        Node n3 = silentAgent();
        Node n4 = new Node("n4", "127.0.0.1", n3.agent(), null);

        client.heardIn(n4, naming(5, "n1"));
        assertNull(client.deposed(), "its own epoch deposes nothing");
        CallFailure sent = assertThrows(CallFailure.class, () -> client.call(n3, AgentApi.push(null), Duration.ofSeconds(2),
                Duration.ZERO));
        assertTrue(sent.reason() != Reason.DEPOSED, "not deposed: the change is sent (and finds no agent): " + sent.getMessage());

        client.heardIn(n4, naming(9, "n2"));
        assertTrue(client.deposed() != null && client.deposed().contains("node n4's agent says"), client.deposed());
        CallFailure change = assertThrows(CallFailure.class, () -> client.call(n3, AgentApi.push((Declaration) null),
                Duration.ofSeconds(2), Duration.ZERO));
        assertEquals(Reason.DEPOSED, change.reason(), change.getMessage());
        assertTrue(change.getMessage().startsWith("this controller was deposed by a promoted seat and changes nothing (its PUT"
                + " to node n3's agent not sent): node n4's agent says: "), change.getMessage());
        CallFailure stream = assertThrows(CallFailure.class, () -> AgentLines.post(client, n3, "/v1/backups", Map.of(),
                Duration.ofSeconds(2), Duration.ofSeconds(2), "a backup"));
        assertEquals(Reason.DEPOSED, stream.reason(), "a streamed change is refused the same: " + stream.getMessage());

        CallFailure look = assertThrows(CallFailure.class, () -> client.call(n3, AgentApi.status(false), Duration.ofSeconds(2),
                Duration.ZERO));
        assertTrue(look.reason() != Reason.DEPOSED, "a look still goes out: " + look.getMessage());
    }
}
