package mesh.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** EngineMessagesTest: an engine failure is told in the engine's or the system's words, never as a Java type. */
class EngineMessagesTest {

    @Test
    void aTransportFailureLosesItsTypeAndKeepsItsWords() {
        assertEquals("No such file or directory", DockerEngine.firstLine("java.net.SocketException: No such file or directory"));
        assertEquals("Connection refused", DockerEngine.firstLine(
                "java.lang.RuntimeException: java.net.ConnectException: Connection refused\n\tat somewhere"));
    }

    @Test
    void theEnginesOwnAnswerIsKept() {
        assertEquals("No such image: mesh-test/none:0", DockerEngine.firstLine(
                "Status 404: {\"message\":\"No such image: mesh-test/none:0\"}"));
        assertEquals("pulling took too long", DockerEngine.firstLine("pulling took too long"));
    }

    @Test
    void aQuotedUrlInTheEnginesAnswerIsNotWhereTheReasonEnds() {
        assertEquals("Get \"https://registry-1.docker.io/v2/\": dial tcp: lookup registry-1.docker.io: network is unreachable",
                DockerEngine.firstLine("Status 500: {\"message\":\"Get \\\"https://registry-1.docker.io/v2/\\\": "
                        + "dial tcp: lookup registry-1.docker.io: network is unreachable\"}\n"));
    }
}
