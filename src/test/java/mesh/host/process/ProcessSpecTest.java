package mesh.host.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import mesh.model.DeclarationJson;
import org.junit.jupiter.api.Test;

/** ProcessSpecTest: the spec's checks and digest, the launch command as a value, /proc parsing, the record's JSON. */
class ProcessSpecTest {

    @Test
    void aGoodSpecHasNoProblemsAndItsDigestFollowsWhatItIsStartedWith() {
        ProcessSpec a = ProcessSpec.of("web.server", "web", "/opt/b", "bin/web", List.of("-v"), Map.of("A", "1"), "/data/web",
                Map.of("db.internal", "10.0.0.2"), 5000);
        assertEquals(List.of(), a.problems());
        assertTrue(a.digest().startsWith("sha256:"));
        ProcessSpec sameButSlowerStop = ProcessSpec.of("web.server", "web", "/opt/b", "bin/web", List.of("-v"), Map.of("A", "1"),
                "/data/web", Map.of("db.internal", "10.0.0.2"), 30000);
        assertEquals(a.digest(), sameButSlowerStop.digest());
        ProcessSpec movedName = ProcessSpec.of("web.server", "web", "/opt/b", "bin/web", List.of("-v"), Map.of("A", "1"), "/data/web",
                Map.of("db.internal", "10.0.0.3"), 5000);
        assertNotEquals(a.digest(), movedName.digest());
    }

    @Test
    void badInputNamesEachProblem() {
        ProcessSpec bad = new ProcessSpec("Web Server", "", "opt/b", "../../bin/sh", List.of(), Map.of("1BAD", "x"), "data",
                Map.of("db.internal", "not an address"), 0, "");
        assertEquals(List.of(
                "component name 'Web Server' must be 1-63 characters of a-z, 0-9, '.', '_' or '-'",
                "component Web Server: module is missing",
                "component Web Server: bundle directory 'opt/b' must be an absolute path",
                "component Web Server: executable '../../bin/sh' must be a path inside the bundle directory",
                "component Web Server: data directory 'data' must be an absolute path",
                "component Web Server: environment variable name '1BAD' is not valid",
                "component Web Server: address 'not an address' of db.internal is not an IP address",
                "component Web Server: stop timeout must be positive, was 0 ms",
                "component Web Server: spec digest is missing"), bad.problems());
    }

    @Test
    void theHostsFileHoldsLocalhostAndExactlyTheBoundNames() {
        ProcessSpec s = Records.spec("sha256:aa");
        assertEquals("127.0.0.1 localhost\n::1 localhost\n10.0.0.2 db.internal\n", s.hostsFile());
    }

    @Test
    void theLaunchCommandIsASessionLeaderShimAroundANamespacedExec() {
        LaunchCommand c = LaunchCommand.of(Records.spec("sha256:aa"), Path.of("/s/exit"), Path.of("/s/hosts"));
        assertEquals(List.of("setsid", "sh", "-c", LaunchCommand.SHIM, "mesh-shim", "web.server", "sha256:aa", "/s/exit", "--",
                "unshare", "--mount", "--propagation", "private", "--",
                "sh", "-c", "mount --bind \"$0\" /etc/hosts && exec \"$@\"", "/s/hosts",
                "/opt/bundles/web/bin/web", "--port", "8080"), c.argv());
        assertEquals(c.argv().subList(1, c.argv().size()), c.shimCmdline());
        assertEquals(Map.of("PATH", LaunchCommand.PATH, "MODE", "prod"), c.env());
        assertEquals(Path.of("/var/lib/mesh/data/web"), c.workDir());
    }

    @Test
    void procStatIsReadFromTheLastParenthesis() {
        String stat = "4242 (we ird) (name) S 1 4242 4242 0 -1 4194304 101 0 0 0 0 0 0 0 20 0 1 0 26185 3133440 410 18446744073709551615";
        byte[] cmdline = "sh\0-c\0echo hi\0".getBytes(StandardCharsets.UTF_8);
        ProcInfo p = ProcInfo.parse(4242, stat, cmdline);
        assertEquals('S', p.state());
        assertEquals(4242, p.processGroup());
        assertEquals(4242, p.session());
        assertEquals(26185, p.startTime());
        assertEquals(List.of("sh", "-c", "echo hi"), p.cmdline());
    }

    @Test
    void aRecordSurvivesTheStrictJsonRoundTrip() throws Exception {
        ProcessRecord r = Supervision.ended(Records.running("sha256:aa"), ExitStatus.fromWait(137, "2026-01-01T00:00:01Z"),
                java.time.Instant.parse("2026-01-01T00:00:01Z"), Backoff.DEFAULT);
        String json = DeclarationJson.MAPPER.writeValueAsString(r);
        assertEquals(r, DeclarationJson.MAPPER.readValue(json, ProcessRecord.class));
        ProcessRecord running = Records.running("sha256:aa");
        assertEquals(running, DeclarationJson.MAPPER.readValue(DeclarationJson.MAPPER.writeValueAsString(running), ProcessRecord.class));
    }
}
