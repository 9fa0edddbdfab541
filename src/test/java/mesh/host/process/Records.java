package mesh.host.process;

import java.util.List;
import java.util.Map;

/** Records builds specs, records and /proc views for the pure tests, like Nomad's mock.Node(). */
final class Records {

    static final String BOOT = "0d6f57a9-455e-41ca-b366-534fb152d3b1";
    static final List<String> CMDLINE = List.of("sh", "-c", "SHIM", "mesh-shim", "web.server", "sha256:aa", "/s/exit", "--");

    private Records() {
    }

    static ProcessSpec spec(String digest) {
        return new ProcessSpec("web.server", "web", "/opt/bundles/web", "bin/web", List.of("--port", "8080"),
                Map.of("MODE", "prod"), "/var/lib/mesh/data/web", Map.of("db.internal", "10.0.0.2"), 5000, digest);
    }

    /** A record of a copy running as pid 4242, started at tick 1000 of boot {@link #BOOT}. */
    static ProcessRecord running(String digest) {
        return ProcessRecord.fresh(spec(digest)).running(4242, 1000, BOOT, CMDLINE, "2026-01-01T00:00:00Z", 0);
    }

    static ProcInfo proc(long pid, long startTime, List<String> cmdline) {
        return new ProcInfo(pid, 'S', pid, pid, startTime, cmdline);
    }
}
