package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ApiPathsTest keeps the API's paths in one place each (docs/design.md, "Where the code is"): a {@code "/v1/…"}
 * literal is written only in the two typed clients ({@code mesh.client.ControllerApi}, {@code mesh.client.AgentApi})
 * and on the serving side, where the API is declared: a resource ({@code @Path}) or a request filter that guards it.
 * Every other caller asks a client for the call by name.
 */
class ApiPathsTest {

    static final List<String> CLIENTS = List.of("mesh/client/ControllerApi.java", "mesh/client/AgentApi.java");

    @Test
    void aPathLiteralIsOnlyInTheTwoClientsAndWhereTheApiIsServed() throws IOException {
        List<String> found = new ArrayList<>();
        SourceScan.mainSources().forEach((name, source) -> {
            String code = source.replaceAll("(?s)/\\*.*?\\*/|//[^\\n]*", " ");
            boolean served = code.contains("@Path(") || code.contains("@ServerRequestFilter");
            if (code.contains("\"/v1/") && !CLIENTS.contains(name) && !served) {
                found.add(name);
            }
        });
        assertEquals(List.of(), found);
    }

    @Test
    void theClientsAreWhereThisTestLooks() {
        CLIENTS.forEach(c -> assertEquals(true, Files.isRegularFile(SourceScan.MAIN.resolve(c)), c));
    }
}
