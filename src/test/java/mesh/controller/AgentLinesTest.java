package mesh.controller;

import mesh.wire.CallFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mesh.model.Node;
import mesh.wire.BackupProgress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * AgentLinesTest: a streamed call of an agent (a backup's, a restore's, a verify's, a take's copy) is read line by
 * line and never waits for ever; each failure names the node and the call. A fake agent (the JDK's HTTP server)
 * answers; the silence bound is a second, not the production 30 s.
 */
class AgentLinesTest {

    static final String WHAT = "the backup of module db on node n2";

    FakeLineAgent fake;

    @AfterEach
    void stop() {
        if (fake != null) {
            fake.close();
        }
    }

    /** An agent that answers {@code status} with {@code lines} at once, then holds the stream open or ends it. */
    Node agent(int status, List<String> lines, boolean thenHold) throws IOException {
        fake = new FakeLineAgent("/v1/backups/db", status, lines, Duration.ZERO, thenHold);
        return fake.node();
    }

    static AgentLines post(Node node) {
        return AgentLines.post(new AgentClient(), node, "/v1/backups/db", Map.of("epoch", 3), Duration.ofSeconds(5),
                Duration.ofSeconds(1), WHAT);
    }

    @Test
    void linesComeInOrderWithoutTheBlankOnesAndNullAtTheEnd() throws Exception {
        Node n2 = agent(200, List.of("{\"bytes\": 10}", "", "{\"bytes\": 20}", "{\"done\": true, \"bytes\": 30}"), false);
        try (AgentLines lines = post(n2)) {
            assertEquals(10L, lines.parse(lines.next(), BackupProgress.class).bytes());
            assertEquals("{\"bytes\": 20}", lines.next());
            BackupProgress last = lines.parse(lines.next(), BackupProgress.class);
            assertEquals(Boolean.TRUE, last.done());
            assertNull(lines.next());
        }
    }

    @Test
    void anAgentThatGoesSilentIsGivenUpOnSayingSo() throws Exception {
        Node n2 = agent(200, List.of("{\"bytes\": 10}"), true);
        long started = System.nanoTime();
        try (AgentLines lines = post(n2)) {
            lines.next();
            CallFailure e = assertThrows(CallFailure.class, lines::next);
            assertEquals(WHAT + ": node n2's agent sent no progress for 1 s (stopped, or the link to it is down)",
                    e.getMessage());
        }
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(10).toNanos(), "given up on within the deadline");
    }

    @Test
    void aRefusalQuotesTheAgentsErrorAndKeepsItsStatus() throws Exception {
        Node n2 = agent(409, List.of("{\"error\": \"module db is fenced at epoch 4, not 3\"}"), false);
        CallFailure e = assertThrows(CallFailure.class, () -> post(n2));
        assertEquals("node n2's agent refused (409): module db is fenced at epoch 4, not 3", e.getMessage());
        assertEquals(409, e.status());
    }

    @Test
    void aRefusalThatIsNotJsonIsQuotedAsItCame() throws Exception {
        Node n2 = agent(502, List.of("Bad Gateway"), false);
        CallFailure e = assertThrows(CallFailure.class, () -> post(n2));
        assertEquals("node n2's agent refused (502): Bad Gateway", e.getMessage());
    }

    @Test
    void aLineThatIsNotJsonBreaksTheCallNamingIt() throws Exception {
        Node n2 = agent(200, List.of("<html>"), false);
        try (AgentLines lines = post(n2)) {
            String line = lines.next();
            CallFailure e = assertThrows(CallFailure.class, () -> lines.parse(line, BackupProgress.class));
            assertTrue(e.getMessage().startsWith(WHAT + " broke off ("), e.getMessage());
        }
    }

    @Test
    void anAgentThatDoesNotAnswerIsNamed() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();   // closed again: nothing listens there
        }
        Node gone = new Node("n2", "127.0.0.1", "http://127.0.0.1:" + port, null);
        CallFailure e = assertThrows(CallFailure.class, () -> post(gone));
        assertTrue(e.getMessage().startsWith("node n2's agent at http://127.0.0.1:" + port + " did not answer ("), e.getMessage());
    }
}
