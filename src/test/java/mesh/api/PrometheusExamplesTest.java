package mesh.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PrometheusExamplesTest checks the example alerting rules and Alertmanager configuration of docs/metrics.md with the
 * tools that will read them (Debian's {@code promtool} and {@code amtool}, which scripts/testbed installs), and that
 * every mesh metric a rule names is one the servers write.
 */
class PrometheusExamplesTest {

    static final Path DIR = Path.of("examples/prometheus");

    @Test
    void promtoolReadsTheRules() throws Exception {
        assertEquals("0", run("promtool", "check", "rules", DIR.resolve("mesh-alerts.yml").toString()));
    }

    @Test
    void amtoolReadsTheAlertmanagerConfig() throws Exception {
        assertEquals("0", run("amtool", "check-config", DIR.resolve("alertmanager.yml").toString()));
    }

    @Test
    void everyMeshMetricTheRulesNameIsWrittenByAServer() throws Exception {
        String rules = Files.readString(DIR.resolve("mesh-alerts.yml"));
        String sources = Files.readString(Path.of("src/main/java/mesh/host/HostMetrics.java"))
                + Files.readString(Path.of("src/main/java/mesh/controller/ControllerMetrics.java"));
        var named = java.util.regex.Pattern.compile("\\bmesh_[a-z_]+").matcher(rules).results().map(m -> m.group()).distinct().toList();
        assertTrue(named.size() >= 8, named.toString());
        List<String> unknown = named.stream().filter(m -> !sources.contains("\"" + m + "\"")).toList();
        assertEquals(List.of(), unknown);
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        return exit == 0 ? "0" : exit + ": " + out;
    }
}
