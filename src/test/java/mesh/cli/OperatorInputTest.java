package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * OperatorInputTest: what the CLI checks of the operator's own input before any request (the
 * environment, the position of -o) and how it words what it prints (ages, an empty refusal).
 */
class OperatorInputTest {

    @ParameterizedTest
    @ValueSource(strings = {"ftp://x", "http://", "127.0.0.1:7700", "not a url", "http://h:7700/v1", "http://h:7700?x=1",
        "http://u:p@h:7700", "http://h:port", " "})
    void aControllerUrlThatIsNotHttpHostPortIsNamed(String bad) {
        VerbFailure f = assertThrows(VerbFailure.class, () -> ControllerClient.controllerUrl(bad));
        assertTrue(f.getMessage().startsWith("MESH_CONTROLLER"), f.getMessage());
    }

    @Test
    void aGoodControllerUrlLosesItsTrailingSlash() {
        assertEquals("http://10.0.0.1:7700", ControllerClient.controllerUrl("http://10.0.0.1:7700/"));
        assertEquals("https://seat.example", ControllerClient.controllerUrl("https://seat.example"));
        assertEquals(ControllerClient.DEFAULT_URL, ControllerClient.controllerUrl(null));
    }

    @Test
    void aTokenWithALineBreakIsBlamedOnMeshToken() {
        VerbFailure f = assertThrows(VerbFailure.class, () -> new ControllerClient(Map.of("MESH_TOKEN", "abc\n")));
        assertTrue(f.getMessage().startsWith("MESH_TOKEN: holds a line break"), f.getMessage());
        f = assertThrows(VerbFailure.class, () -> new ControllerClient(Map.of("MESH_TOKEN", "a b")));
        assertTrue(f.getMessage().startsWith("MESH_TOKEN: holds a space"), f.getMessage());
    }

    @Test
    void aLeadingOutputOptionMovesAfterTheVerb() {
        assertArrayEquals(new String[] {"status", "-o", "json"}, LeadingOutput.moved("-o", "json", "status"));
        assertArrayEquals(new String[] {"node", "list", "--output=json"}, LeadingOutput.moved("--output=json", "node", "list"));
        assertArrayEquals(new String[] {"push", "a", "-ojson", "--", "b"}, LeadingOutput.moved("-ojson", "push", "a", "--", "b"));
        assertArrayEquals(new String[] {"status", "-o", "json"}, LeadingOutput.moved("status", "-o", "json"));
        assertArrayEquals(new String[] {"-o", "json"}, LeadingOutput.moved("-o", "json"));
    }

    @Test
    void agesAreInTheLargestUnitThatFits() {
        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        assertEquals("5 s ago", Times.human("2026-11-30T11:59:55Z", now));
        assertEquals("3 min ago", Times.human("2026-11-30T11:57:00Z", now));
        assertEquals("5 h ago", Times.human("2026-11-30T07:00:00Z", now));
        assertEquals("4 d ago", Times.ago(Duration.ofDays(4)));
        assertEquals("-", Times.human(null, now));
    }

    @Test
    void aRefusalWithoutABodyStillSaysWhat() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            mesh.wire.CallFailure f = assertThrows(mesh.wire.CallFailure.class,
                    () -> new ControllerClient(Map.of("MESH_CONTROLLER", url, "MESH_TOKEN", "t")).api().nodes());
            assertEquals("the server at " + url + " answered 404 (not found); is MESH_CONTROLLER a mesh controller?",
                    f.getMessage());
        } finally {
            server.stop(0);
        }
    }
}
