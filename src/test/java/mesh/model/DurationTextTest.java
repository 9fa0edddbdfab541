package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import mesh.host.HostSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DurationTextTest: one duration syntax, read alike by the flags, the manifest ({@code stop-timeout}, {@code backup.every})
 * and the agent's settings ({@code MESH_HOST_INTERVAL}); what each took before still reads the same.
 */
class DurationTextTest {

    @ParameterizedTest(name = "{0} is {1} ms")
    @CsvSource({
        "30s, 30000", "5m, 300000", "1h, 3600000", "1h30m, 5400000", "2d, 172800000", "1d12h, 129600000",
        "90, 90000", "0, 0", "1500ms, 1500", "1m30s, 90000", "' 5M ', 300000", "300, 300000", "1s500ms, 1500"})
    void aDurationIsANumberAndItsUnitsOrBareSeconds(String text, long millis) {
        assertEquals(Duration.ofMillis(millis), DurationText.parse(text));
        assertNull(DurationText.problem(text));
    }

    @ParameterizedTest(name = "''{0}'' is refused")
    @ValueSource(strings = {"", "5x", "m5", "-5", "-5s", "1.5h", "5 m", "1m1h", "soon", "5mm", "99999999999999999999"})
    void anythingElseIsRefusedSayingWhatIsTaken(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DurationText.parse(text));
        assertEquals("'" + text + "' is not a duration like 30s, 5m, 1h or 1h30m (a bare number is seconds)", e.getMessage());
    }

    @ParameterizedTest(name = "{0} ms reads {1}")
    @CsvSource({"0, 0s", "300000, 5m", "5400000, 1h30m", "86400000, 24h", "1500, 1s500ms", "172800000, 48h"})
    void aDurationIsWrittenAsAFlagTakesIt(long millis, String words) {
        assertEquals(words, DurationText.words(Duration.ofMillis(millis)));
        assertEquals(Duration.ofMillis(millis), DurationText.parse(words));
    }

    @Test
    void aManifestsStopTimeoutTakesBareSecondsAndHoursAndItsBackupPeriodTheSameSyntax() {
        String yaml = """
                module: a
                backup: {every: 1h30m}
                components:
                  a.web:
                    image: mesh-test/busybox:1
                    stop-timeout: %s
                """;
        assertEquals(5, ManifestYaml.parse("a.yaml", yaml.formatted("5")).components().get("a.web").stopTimeoutSeconds());
        assertEquals(3600, ManifestYaml.parse("a.yaml", yaml.formatted("1h")).components().get("a.web").stopTimeoutSeconds());
        assertEquals(2, ManifestYaml.parse("a.yaml", yaml.formatted("1500ms")).components().get("a.web").stopTimeoutSeconds());
        assertEquals(90, ManifestYaml.parse("a.yaml", yaml.formatted("1m30s")).components().get("a.web").stopTimeoutSeconds());
        assertEquals(5400L, ManifestYaml.parse("a.yaml", yaml.formatted("30s")).backup().every());
        assertEquals(List.of("a.yaml:6:19: components.a.web.stop-timeout: must be at most 60m, got 3601"),
                assertThrows(InvalidInput.class, () -> ManifestYaml.parse("a.yaml", yaml.formatted("3601"))).problems());
    }

    @Test
    void theAgentsIntervalTakesMinutesAndStillTakesWhatItDid() {
        assertEquals(Duration.ofMinutes(1), HostSettings.forLocal(Map.of("MESH_HOST_INTERVAL", "1m")).interval());
        assertEquals(Duration.ofSeconds(15), HostSettings.forLocal(Map.of("MESH_HOST_INTERVAL", "15s")).interval());
        assertEquals(Duration.ofSeconds(15), HostSettings.forLocal(Map.of("MESH_HOST_INTERVAL", "15")).interval());
        assertEquals(Duration.ofMillis(500), HostSettings.forLocal(Map.of("MESH_HOST_INTERVAL", "500ms")).interval());
        assertEquals(Duration.ofSeconds(15), HostSettings.forLocal(Map.of()).interval());
        assertEquals(List.of("MESH_HOST_INTERVAL: 'every minute' is not a duration like 30s, 5m, 1h or 1h30m (a bare number is"
                + " seconds)"), assertThrows(InvalidInput.class,
                () -> HostSettings.forLocal(Map.of("MESH_HOST_INTERVAL", "every minute"))).problems());
    }
}
