package mesh.host.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mesh.model.EdgeTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UpstreamFilesTest {

    static final EdgeTable TABLE = new EdgeTable("route-proxy.server", "internal", List.of(
            new EdgeTable.Route("searxng.zurag.be", "10.77.0.11:8080", "searxng"),
            new EdgeTable.Route("*.zurag.be", "10.77.0.12:8081", "whoami")));

    @Test
    void eachRouteHasAFileItsDialNames() {
        assertEquals(Map.of("searxng.zurag.be", "10.77.0.11:8080", "_.zurag.be", "10.77.0.12:8081"),
                UpstreamFiles.wanted(TABLE));
        assertEquals("{file./tmp/mesh-upstreams/_.zurag.be}", UpstreamFiles.dial("*.zurag.be"));
    }

    @Test
    void onlyWhatChangedIsWrittenAgain() {
        Map<String, String> written = Map.of("searxng.zurag.be", "10.77.0.11:8080", "_.zurag.be", "10.77.0.12:8081");
        Map<String, String> cutOver = Map.of("searxng.zurag.be", "10.77.0.11:32771", "_.zurag.be", "10.77.0.12:8081");

        assertEquals(Map.of("searxng.zurag.be", "10.77.0.11:32771"), UpstreamFiles.changed(written, cutOver));
        assertEquals(Map.of(), UpstreamFiles.changed(cutOver, cutOver));
        assertEquals(cutOver, UpstreamFiles.changed(Map.of(), cutOver), "nothing written yet: all of them");
    }

    /** The script run by a real sh, a stand-in {@code caddy} on its PATH printing the version each kind of build prints. */
    @Test
    void theScriptWritesEachFileWholeBesideACaddyThatKnowsThePlaceholder(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("up");
        assertEquals(0, run(tmp, "v2.11.4 h1:abc=", dir, Map.of("searxng.zurag.be", "10.77.0.11:32771")));
        assertEquals("10.77.0.11:32771", Files.readString(dir.resolve("searxng.zurag.be")), "no newline after it");

        assertEquals(0, run(tmp, "2.8.0", dir, Map.of("searxng.zurag.be", "10.77.0.11:8080", "_.zurag.be", "10.77.0.12:1")));
        assertEquals("10.77.0.11:8080", Files.readString(dir.resolve("searxng.zurag.be")), "replaced");
        assertEquals("10.77.0.12:1", Files.readString(dir.resolve("_.zurag.be")));
        try (var left = Files.list(dir)) {
            assertEquals(2, left.count(), "no temporary file left beside them");
        }
    }

    @Test
    void aCaddyOlderThan28OrNoneIsRefusedAndNothingIsWritten(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("up");
        assertEquals(UpstreamFiles.TOO_OLD, run(tmp, "v2.7.6 h1:abc=", dir, Map.of("a.b", "10.0.0.1:80")));
        assertEquals(UpstreamFiles.TOO_OLD, run(tmp, "2.6.2", dir, Map.of("a.b", "10.0.0.1:80")));
        assertEquals(UpstreamFiles.TOO_OLD, run(tmp, null, dir, Map.of("a.b", "10.0.0.1:80")));
        assertFalse(Files.exists(dir));
        assertTrue(UpstreamFiles.cannot(UpstreamFiles.TOO_OLD).contains("older than 2.8"));
        assertTrue(UpstreamFiles.cannot(127).contains("no sh"));
        assertNull(UpstreamFiles.cannot(5), "a failed write is not for good");
    }

    /** Runs the write command with a {@code caddy} printing {@code version} (none at all when null). */
    private static int run(Path tmp, String version, Path dir, Map<String, String> files)
            throws IOException, InterruptedException {
        Path bin = Files.createDirectories(tmp.resolve("bin-" + (version == null ? "none" : version.hashCode())));
        if (version != null) {
            Path caddy = bin.resolve("caddy");
            Files.writeString(caddy, "#!/bin/sh\necho '" + version + "'\n");
            Files.setPosixFilePermissions(caddy, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        List<String> command = UpstreamFiles.command(dir.toString(), files);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":/usr/bin:/bin");
        Process p = pb.start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "the script ends");
        return p.exitValue();
    }
}
