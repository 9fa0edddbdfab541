package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * FileSizesTest keeps the parts that grow the most small (docs/design.md, "How the code is written"): the host
 * agent is a facade over its loop and pass steps, the push gathers and lets plan/ decide, and no file of the
 * agent's packages grows past a few hundred lines again.
 */
class FileSizesTest {

    static long lines(String file) throws IOException {
        try (Stream<String> l = Files.lines(SourceScan.MAIN.resolve(file))) {
            return l.count();
        }
    }

    @Test
    void theAgentAndThePushStaySmall() throws IOException {
        assertTrue(lines("mesh/host/HostAgent.java") < 200, "HostAgent: " + lines("mesh/host/HostAgent.java") + " lines");
        assertTrue(lines("mesh/controller/MeshPush.java") < 120, "MeshPush: " + lines("mesh/controller/MeshPush.java") + " lines");
    }

    /** The long operations are their steps on the one runner (OperationRunner), not three copies of its loop. */
    @Test
    void theOperationsStayThinOnTheirRunner() throws IOException {
        for (String f : List.of("mesh/controller/MeshTake.java", "mesh/controller/MeshBackup.java", "mesh/controller/MeshRestore.java")) {
            assertTrue(lines(f) <= 120, f + ": " + lines(f) + " lines");
        }
    }

    @Test
    void noFileOfTheAgentIsOver300Lines() throws IOException {
        List<String> over = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SourceScan.MAIN.resolve("mesh/host"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                long n = lines(SourceScan.MAIN.relativize(f).toString());
                if (n > 300) {
                    over.add(SourceScan.MAIN.relativize(f) + " (" + n + ")");
                }
            }
        }
        assertEquals(List.of(), over);
    }
}
